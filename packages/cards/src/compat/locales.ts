/**
 * @module `locale` of the drop-in stats, top-languages, pin and streak cards: the card labels in the
 * languages github-readme-stats (`src/translations.js`) and github-readme-streak-stats
 * (`src/translations.php`) both translate completely for the strings we draw. A locale is
 * matched in any case with `_` and `-` alike, by its full name, their aliases (`cn`, `kr`,
 * `zh_Hans`, `pt_BR`), then its language (`de-AT` is `de`); anything else draws in English.
 * A label a locale lacks (the week streaks in Turkish) stays English.
 */

/** Every label the drop-in cards translate; English is each card's own text. */
export interface CardLabels {
  /** The stats card title for an account's display name. */
  statsTitle: (name: string) => string;
  stars: string;
  commits: string;
  /** Appended in brackets to `commits` when the card counts the last year. */
  lastYear: string;
  prs: string;
  prsMerged: string;
  prsMergedPercentage: string;
  reviews: string;
  issues: string;
  discussionsStarted: string;
  discussionsAnswered: string;
  contribs: string;
  languagesTitle: string;
  totalContributions: string;
  currentStreak: string;
  longestStreak: string;
  weekStreak: string;
  longestWeekStreak: string;
  present: string;
  /** The repository pin's markers. */
  archived: string;
  template: string;
}

export type LocaleName = keyof typeof locales;

/** German genitive: an `s`, none after a name ending in s, x or z (their apostrophe rule). */
const germanGenitive = (name: string) => (/[sxz]$/i.test(name) ? name : `${name}s`);

const locales = {
  de: {
    statsTitle: (name) => `${germanGenitive(name)} GitHub-Statistiken`,
    stars: 'Insgesamt erhaltene Sterne',
    commits: 'Anzahl Commits',
    lastYear: 'letztes Jahr',
    prs: 'PRs Insgesamt',
    prsMerged: 'Insgesamt zusammengeführte PRs',
    prsMergedPercentage: 'Zusammengeführte PRs in Prozent',
    reviews: 'Insgesamt überprüfte PRs',
    issues: 'Anzahl Issues',
    discussionsStarted: 'Gesamt gestartete Diskussionen',
    discussionsAnswered: 'Gesamt beantwortete Diskussionen',
    contribs: 'Beigetragen zu (letztes Jahr)',
    languagesTitle: 'Meist verwendete Sprachen',
    totalContributions: 'Gesamte Beiträge',
    currentStreak: 'Aktuelle Serie',
    longestStreak: 'Längste Serie',
    weekStreak: 'Wochenserie',
    longestWeekStreak: 'Längste Wochenserie',
    present: 'Heute',
    archived: 'Archiviert',
    template: 'Vorlage',
  },
  es: {
    statsTitle: (name) => `Estadísticas de GitHub de ${name}`,
    stars: 'Estrellas totales',
    commits: 'Commits totales',
    lastYear: 'el año pasado',
    prs: 'PRs totales',
    prsMerged: 'PR totales fusionados',
    prsMergedPercentage: 'Porcentaje de PR fusionados',
    reviews: 'PR totales revisados',
    issues: 'Issues totales',
    discussionsStarted: 'Discusiones totales iniciadas',
    discussionsAnswered: 'Discusiones totales respondidas',
    contribs: 'Contribuciones en (el año pasado)',
    languagesTitle: 'Lenguajes más usados',
    totalContributions: 'Contribuciones Totales',
    currentStreak: 'Racha Actual',
    longestStreak: 'Racha Más Larga',
    weekStreak: 'Racha Semanal',
    longestWeekStreak: 'Racha Semanal Más Larga',
    present: 'Presente',
    archived: 'Archivados',
    template: 'Plantilla',
  },
  fr: {
    statsTitle: (name) => `Statistiques GitHub de ${name}`,
    stars: "Total d'étoiles",
    commits: 'Total des Commits',
    lastYear: "l'année dernière",
    prs: 'Total des PRs',
    prsMerged: 'Nombre total de PR fusionnés',
    prsMergedPercentage: 'Pourcentage de PR fusionnés',
    reviews: 'Nombre total de PR examinés',
    issues: "Nombre total d'incidents",
    discussionsStarted: 'Nombre total de discussions lancées',
    discussionsAnswered: 'Nombre total de discussions répondues',
    contribs: "Contribué à (l'année dernière)",
    languagesTitle: 'Langages les plus utilisés',
    totalContributions: 'Contributions totales',
    currentStreak: 'Séquence actuelle',
    longestStreak: 'Plus longue séquence',
    weekStreak: 'Séquence de la semaine',
    longestWeekStreak: 'Plus longue séquence hebdomadaire',
    present: "Aujourd'hui",
    archived: 'Archivé',
    template: 'Modèle',
  },
  it: {
    statsTitle: (name) => `Statistiche GitHub di ${name}`,
    stars: 'Stelle totali',
    commits: 'Commit totali',
    lastYear: "l'anno scorso",
    prs: 'PR totali',
    prsMerged: 'PR totali uniti',
    prsMergedPercentage: 'Percentuale di PR uniti',
    reviews: 'PR totali esaminati',
    issues: 'Segnalazioni totali',
    discussionsStarted: 'Discussioni totali avviate',
    discussionsAnswered: 'Discussioni totali risposte',
    contribs: "Ha contribuito a (l'anno scorso)",
    languagesTitle: 'Linguaggi più utilizzati',
    totalContributions: 'Totale dei Contributi',
    currentStreak: 'Serie Corrente',
    longestStreak: 'Serie più Lunga',
    weekStreak: 'Serie Settimanale',
    longestWeekStreak: 'Serie Settimanale più Lunga',
    present: 'Presente',
    archived: 'Archiviata',
    template: 'Template',
  },
  ja: {
    statsTitle: (name) => `${name}の GitHub 統計`,
    stars: 'スターされた数',
    commits: '合計コミット数',
    lastYear: '昨年',
    prs: '合計 PR',
    prsMerged: 'マージされた PR の総数',
    prsMergedPercentage: 'マージされた PR の割合',
    reviews: 'レビューされた PR の総数',
    issues: '合計 issue',
    discussionsStarted: '開始されたディスカッションの総数',
    discussionsAnswered: '回答されたディスカッションの総数',
    contribs: '貢献したリポジトリ （昨年）',
    languagesTitle: '最もよく使っている言語',
    totalContributions: '総コントリビューション数',
    currentStreak: '現在のストリーク',
    longestStreak: '最長のストリーク',
    weekStreak: '週間ストリーク',
    longestWeekStreak: '最長の週間ストリーク',
    present: '今',
    archived: 'アーカイブ済み',
    template: 'テンプレート',
  },
  ko: {
    statsTitle: (name) => `${name}의 GitHub 통계`,
    stars: '받은 스타 수',
    commits: '전체 커밋 수',
    lastYear: '작년',
    prs: 'PR 횟수',
    prsMerged: '병합된 총 PR',
    prsMergedPercentage: '병합된 PR의 비율',
    reviews: '검토된 총 PR',
    issues: '이슈 개수',
    discussionsStarted: '시작된 토론 총 수',
    discussionsAnswered: '답변된 토론 총 수',
    contribs: '(작년) 기여',
    languagesTitle: '가장 많이 사용된 언어',
    totalContributions: '총 기여 수',
    currentStreak: '현재 연속 기여 수',
    longestStreak: '최대 연속 기여 수',
    weekStreak: '주간 기여 수',
    longestWeekStreak: '최대 주간 기여 수',
    present: '현재',
    archived: '보관됨',
    template: '템플릿',
  },
  nl: {
    statsTitle: (name) => `${name}'${/[sxz]$/i.test(name) ? '' : 's'} GitHub-statistieken`,
    stars: 'Totaal Sterren Ontvangen',
    commits: 'Aantal commits',
    lastYear: 'vorig jaar',
    prs: "Aantal PR's",
    prsMerged: "Totaal samengevoegde PR's",
    prsMergedPercentage: "Percentage samengevoegde PR's",
    reviews: "Totaal beoordeelde PR's",
    issues: 'Aantal kwesties',
    discussionsStarted: 'Totaal gestarte discussies',
    discussionsAnswered: 'Totaal beantwoorde discussies',
    contribs: 'Bijgedragen aan (vorig jaar)',
    languagesTitle: 'Meest gebruikte talen',
    totalContributions: 'Totale Bijdrage',
    currentStreak: 'Huidige Serie',
    longestStreak: 'Langste Serie',
    weekStreak: 'Week Serie',
    longestWeekStreak: 'Langste Week Serie',
    present: 'Vandaag',
    archived: 'Gearchiveerd',
    template: 'Sjabloon',
  },
  pl: {
    statsTitle: (name) => `Statystyki GitHub użytkownika ${name}`,
    stars: 'Liczba otrzymanych gwiazdek',
    commits: 'Wszystkie commity',
    lastYear: 'w zeszłym roku',
    prs: 'Wszystkie PR-y',
    prsMerged: 'Łącznie połączonych PR',
    prsMergedPercentage: 'Procent połączonych PR',
    reviews: 'Łącznie sprawdzonych PR',
    issues: 'Wszystkie problemy',
    discussionsStarted: 'Łącznie rozpoczętych dyskusji',
    discussionsAnswered: 'Łącznie odpowiedzianych dyskusji',
    contribs: 'Kontrybucje (w zeszłym roku)',
    languagesTitle: 'Najczęściej używane języki',
    totalContributions: 'Suma Kontrybucji',
    currentStreak: 'Aktualna Seria',
    longestStreak: 'Najdłuższa Seria',
    weekStreak: 'Seria Tygodni',
    longestWeekStreak: 'Najdłuższa Seria Tygodni',
    present: 'Dziś',
    archived: 'Zarchiwizowano',
    template: 'Szablony',
  },
  'pt-br': {
    statsTitle: (name) => `Estatísticas do GitHub de ${name}`,
    stars: 'Total de estrelas',
    commits: 'Total de Commits',
    lastYear: 'ano passado',
    prs: 'Total de PRs',
    prsMerged: 'Total de PRs Integrados',
    prsMergedPercentage: 'Porcentagem de PRs Integrados',
    reviews: 'Total de PRs revisados',
    issues: 'Total de Issues',
    discussionsStarted: 'Total de Discussões Iniciadas',
    discussionsAnswered: 'Total de Discussões Respondidas',
    contribs: 'Contribuiu para (ano passado)',
    languagesTitle: 'Linguagens mais usadas',
    totalContributions: 'Total de Contribuições',
    currentStreak: 'Sequência Atual',
    longestStreak: 'Maior Sequência',
    weekStreak: 'Sequência Semanal',
    longestWeekStreak: 'Maior Sequência Semanal',
    present: 'Presente',
    archived: 'Arquivados',
    template: 'Modelo',
  },
  ru: {
    statsTitle: (name) => `Статистика GitHub пользователя ${name}`,
    stars: 'Всего звёзд',
    commits: 'Всего коммитов',
    lastYear: 'за прошлый год',
    prs: 'Всего запросов изменений',
    prsMerged: 'Всего объединённых запросов',
    prsMergedPercentage: 'Процент объединённых запросов',
    reviews: 'Всего запросов проверено',
    issues: 'Всего вопросов',
    discussionsStarted: 'Всего начатых обсуждений',
    discussionsAnswered: 'Всего отвеченных обсуждений',
    contribs: 'Внесено вклада (за прошлый год)',
    languagesTitle: 'Наиболее используемые языки',
    totalContributions: 'Общий вклад',
    currentStreak: 'Текущая серия',
    longestStreak: 'Самая длинная серия',
    weekStreak: 'Текущая серия недель',
    longestWeekStreak: 'Самая длинная серия недель',
    present: 'Сейчас',
    archived: 'Архивирован',
    template: 'Шаблон',
  },
  tr: {
    statsTitle: (name) => `${name} Hesabının GitHub İstatistikleri`,
    stars: 'Toplam Yıldız',
    commits: 'Toplam Commit',
    lastYear: 'geçen yıl',
    prs: 'Toplam PR',
    prsMerged: 'Toplam Birleştirilmiş PR',
    prsMergedPercentage: 'Birleştirilmiş PR Yüzdesi',
    reviews: 'İncelenen toplam PR',
    issues: 'Toplam Hata',
    discussionsStarted: 'Başlatılan Toplam Tartışma',
    discussionsAnswered: 'Toplam Cevaplanan Tartışma',
    contribs: 'Katkı Verildi (geçen yıl)',
    languagesTitle: 'En Çok Kullanılan Diller',
    totalContributions: 'Toplam Katkı',
    currentStreak: 'Güncel Seri',
    longestStreak: 'En Uzun Seri',
    present: 'Şu an',
    archived: 'Arşiv',
    template: 'Şablon',
  },
  'zh-cn': {
    statsTitle: (name) => `${name} 的 GitHub 统计数据`,
    stars: '获标星数',
    commits: '累计提交总数',
    lastYear: '去年',
    prs: '发起的 PR 总数',
    prsMerged: '合并的 PR 总数',
    prsMergedPercentage: '被合并的 PR 占比',
    reviews: '审查的 PR 总数',
    issues: '提出的 issue 总数',
    discussionsStarted: '发起的讨论总数',
    discussionsAnswered: '回复的讨论总数',
    contribs: '贡献的项目数（去年）',
    languagesTitle: '最常用的语言',
    totalContributions: '合计贡献',
    currentStreak: '目前连续贡献',
    longestStreak: '最长连续贡献',
    weekStreak: '周连续贡献',
    longestWeekStreak: '最长周连续贡献',
    present: '至今',
    archived: '已归档',
    template: '模板',
  },
  'zh-tw': {
    statsTitle: (name) => `${name} 的 GitHub 統計資料`,
    stars: '得標星星數量（Star）',
    commits: '累計提交數量（Commit）',
    lastYear: '去年',
    prs: '拉取請求數量（PR）',
    prsMerged: '合併的 PR 總計',
    prsMergedPercentage: '合併的 PR 百分比',
    reviews: '審核的 PR 總計',
    issues: '提出問題數量（Issue）',
    discussionsStarted: '發起的討論總數',
    discussionsAnswered: '回覆討論總計',
    contribs: '參與項目數量（去年）',
    languagesTitle: '最常用的語言',
    totalContributions: '合計貢獻',
    currentStreak: '目前連續貢獻',
    longestStreak: '最長連續貢獻',
    weekStreak: '周連續貢獻',
    longestWeekStreak: '最長周連續貢獻',
    present: '至今',
    archived: '已封存',
    template: '模板',
  },
} satisfies Record<string, Partial<CardLabels>>;

/** Their other names for our locales (github-readme-stats' `cn`, `kr`; streak-stats' `zh_Hans`). */
const aliases: Readonly<Record<string, LocaleName>> = {
  cn: 'zh-cn',
  zh: 'zh-cn',
  'zh-hans': 'zh-cn',
  'zh-hant': 'zh-tw',
  kr: 'ko',
  pt: 'pt-br',
};

const names = new Set<string>(Object.keys(locales));

function known(name: string): LocaleName | undefined {
  if (names.has(name)) return name as LocaleName;
  return Object.hasOwn(aliases, name) ? aliases[name] : undefined;
}

/** The locale a `locale` value names; `undefined` for English and every locale we lack. */
export function readLocale(raw: string): LocaleName | undefined {
  const name = raw.trim().toLowerCase().replaceAll('_', '-');
  return known(name) ?? known(name.split('-')[0]!);
}

/** The labels of a locale (missing ones are `undefined`: the card's English applies). */
export function labelsOf(locale: LocaleName | null): Partial<CardLabels> {
  return locale === null ? {} : locales[locale];
}

/** BCP 47 tag of a locale for `Intl` (dates on the streak card). */
export function intlTag(locale: LocaleName): string {
  return locale === 'pt-br' ? 'pt-BR' : locale === 'zh-cn' ? 'zh-CN' : locale === 'zh-tw' ? 'zh-TW' : locale;
}
