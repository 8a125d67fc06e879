/**
 * @module Every parameter of the drop-in URLs has its visible effect on the card: a colour
 * where it belongs, a title replaced or gone, an item hidden, a layout or size changed, a
 * gradient drawn. Each check compares against the same URL without the parameter.
 */
import { describe, expect, it } from 'vitest';
import { siGithub } from '../src/brands/simple-icons.generated.js';
import { renderRepo } from '../src/cards/repo.js';
import { getTheme } from '../src/index.js';
import { okCard, textsOf, useGitHubTestBed } from './support/github-app.js';

const bed = useGitHubTestBed();

const card = (path: string) => okCard(bed(), path);

/** The attributes of the `<text>` element whose content is exactly `content`. */
function textAttributes(svg: string, content: string): string {
  const escaped = content.replaceAll('&', '&amp;').replaceAll("'", '&#39;').replaceAll('<', '&lt;');
  const start = svg.indexOf(`>${escaped}</text>`);
  expect(start, `no text "${content}"`).toBeGreaterThan(0);
  return svg.slice(svg.lastIndexOf('<text', start), start);
}

/** The value of `name` in an attribute string. */
function attribute(attributes: string, name: string): string | undefined {
  const at = attributes.indexOf(` ${name}="`);
  if (at < 0) return undefined;
  const from = at + name.length + 3;
  return attributes.slice(from, attributes.indexOf('"', from));
}

/** The first `<rect>` after the title: every card's frame. */
function frame(svg: string): string {
  const rest = svg.slice(svg.indexOf('</title>'));
  return rest.slice(rest.indexOf('<rect'), rest.indexOf('/>', rest.indexOf('<rect')));
}

const sizeOf = (svg: string) => ({
  width: Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)![1]),
  height: Number(/^<svg[^>]* height="([\d.]+)"/.exec(svg)![1]),
});

describe('github-readme-stats /api', () => {
  const base = '/api?username=ada';

  it('username, show_icons, hide, show, hide_rank, include_all_commits', async () => {
    const plain = await card(base);
    expect(textsOf(plain)[0]).toBe("Ada Lovelace's GitHub Stats");
    expect(textsOf(plain)).toContain('Total Stars Earned:');
    const iconCount = (svg: string) => svg.split('stroke-linejoin="round"/>').length - 1;
    expect(iconCount(await card(`${base}&show_icons=true`))).toBe(iconCount(plain) + 5);
    const hidden = textsOf(await card(`${base}&hide=stars,prs`));
    expect(hidden).not.toContain('Total Stars Earned:');
    expect(hidden).not.toContain('Total Pull Requests:');
    expect(hidden).toContain('Total Issues:');
    const shown = textsOf(await card(`${base}&show=reviews`));
    expect(shown).toContain('Total Reviews:');
    expect(shown[shown.indexOf('Total Reviews:') + 1]).toBe('4');
    expect(textsOf(plain)).toContain('B');
    const noRank = textsOf(await card(`${base}&hide_rank=true`));
    expect(noRank).not.toContain('B');
    expect(noRank).not.toContain('top 53%');
    const percentile = textsOf(await card(`${base}&rank_icon=percentile`));
    expect(percentile).toContain('53%');
    expect(percentile).toContain('grade B');
    const all = textsOf(await card(`${base}&include_all_commits=true`));
    expect(all).toContain('Total Commits (all time):');
    expect(all).toContain('28');
  });

  it('hide_title, custom_title, hide_border, card_width, line_height, border_radius', async () => {
    const plain = await card(base);
    expect(textsOf(await card(`${base}&hide_title=true`))).not.toContain("Ada Lovelace's GitHub Stats");
    expect(textsOf(await card(`${base}&custom_title=My%20numbers`))[0]).toBe('My numbers');
    expect(frame(plain)).toContain('stroke=');
    expect(frame(await card(`${base}&hide_border=true`))).not.toContain('stroke=');
    expect(sizeOf(await card(`${base}&card_width=600`)).width).toBe(600);
    const rowY = (svg: string, label: string) => Number(attribute(textAttributes(svg, label), 'y'));
    const tall = await card(`${base}&line_height=40`);
    expect(rowY(tall, 'Total Commits (last year):') - rowY(tall, 'Total Stars Earned:')).toBe(40);
    expect(rowY(plain, 'Total Commits (last year):') - rowY(plain, 'Total Stars Earned:')).toBe(25);
    expect(attribute(frame(await card(`${base}&border_radius=0`)), 'rx')).toBe('0');
  });

  it('number_format writes short (3.3k) or long (3,301) numbers', async () => {
    expect(textsOf(await card('/api?username=grace&number_format=short'))).toContain('3.3k');
    expect(textsOf(await card('/api?username=grace&number_format=long'))).toContain('3,301');
  });

  it('cache_seconds sets the shared-cache lifetime (30 minutes to 2 days)', async () => {
    const cacheControl = async (query: string) =>
      (await bed().app()(`${base}${query}`)).headers.get('cache-control');
    expect(await cacheControl('')).toBe('public, max-age=1800, s-maxage=1800, stale-while-revalidate=86400');
    expect(await cacheControl('&cache_seconds=86400')).toBe(
      'public, max-age=86400, s-maxage=86400, stale-while-revalidate=86400',
    );
    expect(await cacheControl('&cache_seconds=10')).toBe(await cacheControl(''));
    expect(await cacheControl('&cache_seconds=9999999')).toContain('max-age=172800,');
    // Warm: the same answers again, each with its own lifetime.
    expect(await cacheControl('&cache_seconds=86400')).toContain('max-age=86400,');
    expect(await cacheControl('')).toContain('max-age=1800,');
  });

  it('disable_animations is accepted (the card is already still)', async () => {
    const plain = await card(base);
    expect(await card(`${base}&disable_animations=true`)).toBe(plain);
    expect(plain).not.toContain('@keyframes');
  });

  it('show adds merged pull requests, their share and discussions in their order', async () => {
    const texts = textsOf(
      await card(
        '/api?username=babbage&show=discussions_answered,prs_merged,prs_merged_percentage,discussions_started',
      ),
    );
    const rows = texts.filter((text) => text.endsWith(':'));
    expect(rows).toEqual([
      'Total Stars Earned:',
      'Total Commits (last year):',
      'Total Pull Requests:',
      'Total PRs Merged:',
      'Merged PRs Percentage:',
      'Total Issues:',
      'Total Discussions Started:',
      'Total Discussions Answered:',
      'Contributed to (last year):',
    ]);
    const value = (row: string) => texts[texts.indexOf(row) + 1];
    // babbage (the fixtures): 20 of 30 pull requests merged, 6 discussions, 2 answers.
    expect(value('Total PRs Merged:')).toBe('20');
    expect(value('Merged PRs Percentage:')).toBe('66.67%');
    expect(value('Total Discussions Started:')).toBe('6');
    expect(value('Total Discussions Answered:')).toBe('2');
    expect(textsOf(await card('/api?username=babbage'))).not.toContain('Total PRs Merged:');
  });

  it('count_private adds the private commits GitHub counts (public only by default)', async () => {
    const commits = async (query: string) => {
      const texts = textsOf(await card(`/api?username=babbage${query}`));
      return texts[texts.findIndex((text) => text.startsWith('Total Commits')) + 1];
    };
    // babbage: 4 public commits in the last year, 7 private; 1999 adds 2 public and 7 private.
    expect(await commits('')).toBe('4');
    expect(await commits('&count_private=true')).toBe('11');
    expect(await commits('&include_all_commits=true')).toBe('6');
    expect(await commits('&include_all_commits=true&count_private=true')).toBe('20');
  });

  it('rank_icon=github draws the GitHub mark in the ring and the grade under it', async () => {
    const plain = await card(base);
    const mark = await card(`${base}&rank_icon=github`);
    expect(plain).not.toContain(siGithub.path);
    expect(mark).toContain(`d="${siGithub.path}"`);
    expect(textsOf(plain)).toContain('B');
    expect(textsOf(mark)).not.toContain('B');
    expect(textsOf(mark)).toContain('grade B');
  });

  it('locale translates the title and every row (their aliases too); unknown locales draw English', async () => {
    const german = textsOf(await card(`${base}&locale=de&show=prs_merged`));
    expect(german[0]).toBe('Ada Lovelaces GitHub-Statistiken');
    expect(german.filter((text) => text.endsWith(':'))).toEqual([
      'Insgesamt erhaltene Sterne:',
      'Anzahl Commits (letztes Jahr):',
      'PRs Insgesamt:',
      'Insgesamt zusammengeführte PRs:',
      'Anzahl Issues:',
      'Beigetragen zu (letztes Jahr):',
    ]);
    expect(textsOf(await card(`${base}&locale=de&include_all_commits=true`))).toContain('Anzahl Commits:');
    // github-readme-stats writes Chinese as `cn`, streak-stats as `zh_Hans`.
    const chinese = textsOf(await card(`${base}&locale=cn`));
    expect(chinese[0]).toBe('Ada Lovelace 的 GitHub 统计数据');
    expect(chinese).toContain('获标星数:');
    expect(textsOf(await card(`${base}&locale=zh_Hans`))).toEqual(chinese);
    expect(textsOf(await card(`${base}&locale=pt-BR`))).toContain('Total de estrelas:');
    // A custom title wins over the translated one.
    expect(textsOf(await card(`${base}&locale=fr&custom_title=Moi`))[0]).toBe('Moi');
    const plain = await card(base);
    expect(await card(`${base}&locale=xx`)).toBe(plain);
    expect(await card(`${base}&locale=en`)).toBe(plain);
  });

  it('title_color, text_color, icon_color, border_color, ring_color, bg_color', async () => {
    const svg = await card(
      `${base}&show_icons=true&title_color=ff0000&text_color=00ff00&icon_color=0000ff&border_color=123456&ring_color=abcdef&bg_color=fedcba`,
    );
    expect(attribute(textAttributes(svg, "Ada Lovelace's GitHub Stats"), 'fill')).toBe('#ff0000');
    expect(attribute(textAttributes(svg, 'Total Issues:'), 'fill')).toBe('#00ff00');
    expect(svg).toContain('stroke="#0000ff" stroke-width="1.4"');
    expect(attribute(frame(svg), 'stroke')).toBe('#123456');
    expect(attribute(frame(svg), 'fill')).toBe('#fedcba');
    expect(svg).toContain('stroke="#abcdef" stroke-width="6" stroke-linecap="round"');
  });

  it('bg_color=angle,color1,color2 draws a gradient', async () => {
    const svg = await card(`${base}&bg_color=30,e96443,904e95`);
    expect(svg).toContain(
      '<linearGradient id="compat-background" gradientTransform="rotate(30 .5 .5)"><stop offset="0%" stop-color="#e96443"/><stop offset="100%" stop-color="#904e95"/></linearGradient>',
    );
    expect(attribute(frame(svg), 'fill')).toBe('url(#compat-background)');
  });

  it('theme takes their names, mapped to ours; an unknown one is their default', async () => {
    expect(attribute(frame(await card(`${base}&theme=radical`)), 'fill')).toBe('#141321');
    expect(attribute(frame(await card(`${base}&theme=tokyonight`)), 'fill')).toBe('#1a1b27');
    expect(attribute(frame(await card(`${base}&theme=github_dark`)), 'fill')).toBe('#0d1117');
    expect(attribute(frame(await card(`${base}&theme=no-such-theme`)), 'fill')).toBe('none');
    // A bad value of a lenient parameter is ignored, never an error.
    expect(await card(`${base}&title_color=red&card_width=wide&hide=;&line_height=x`)).toBe(await card(base));
  });
});

describe('github-readme-stats /api/top-langs and /api/pin', () => {
  const langs = '/api/top-langs/?username=ada';
  // Their compact layout: one stacked bar and a legend of "Name 12.3%" (normal, their default,
  // draws a row per language: test/compat-drop-in-iv.test.ts).
  const legend = `${langs}&layout=compact`;

  it('langs_count and hide choose the languages', async () => {
    expect(textsOf(await card(legend))).toEqual([
      'Most Used Languages',
      'TypeScript 64.0%',
      'Python 24.0%',
      'CSS 8.0%',
      'Shell 4.0%',
    ]);
    expect(textsOf(await card(`${legend}&langs_count=1`))).toEqual([
      'Most Used Languages',
      'TypeScript 64.0%',
      'Other 36.0%',
    ]);
    const hidden = textsOf(await card(`${legend}&hide=python`));
    expect(hidden.join(' ')).not.toContain('Python');
    expect(hidden).toContain('TypeScript 84.2%');
  });

  it('size_weight and count_weight rank by bytes^size x repositories^count', async () => {
    // ada: TypeScript is in two repositories, Python, CSS and Shell in one each.
    expect(textsOf(await card(`${legend}&size_weight=0&count_weight=1`))).toEqual([
      'Most Used Languages',
      'TypeScript 40.0%',
      'Python 20.0%',
      'CSS 20.0%',
      'Shell 20.0%',
    ]);
    // sqrt(80,000 x 2) = 400 of 400 + 173.2 + 100 + 70.7 = 743.9.
    expect(textsOf(await card(`${legend}&size_weight=0.5&count_weight=0.5`))[1]).toBe('TypeScript 53.8%');
    expect(await card(`${legend}&size_weight=1&count_weight=0`)).toBe(await card(legend));
  });

  it('hide_progress draws the names without the bar and the percentages', async () => {
    const plain = await card(legend);
    const names = await card(`${legend}&hide_progress=true`);
    expect(textsOf(names)).toEqual(['Most Used Languages', 'TypeScript', 'Python', 'CSS', 'Shell']);
    expect(plain).toContain('height="10" fill="#3178c6"');
    expect(names).not.toContain('height="10" fill="#3178c6"');
    expect(sizeOf(names).height).toBeLessThan(sizeOf(plain).height);
  });

  it('exclude_repo leaves repositories out of the sums (any case)', async () => {
    // Without notes (Python 30,000, TypeScript 20,000): TypeScript 60,000, CSS 10,000 and
    // Shell 5,000 of 75,000 bytes = 80.0 %, 13.3 %, 6.7 %.
    const expected = ['Most Used Languages', 'TypeScript 80.0%', 'CSS 13.3%', 'Shell 6.7%'];
    expect(textsOf(await card(`${legend}&exclude_repo=notes`))).toEqual(expected);
    expect(textsOf(await card(`${legend}&exclude_repo=NOTES,no-such-repo`))).toEqual(expected);
    // The unexcluded card is unchanged after an excluded one was drawn from the same data.
    expect(textsOf(await card(legend))).toContain('Python 24.0%');
  });

  it('layout: donut and pie draw a circle chart instead of the bar', async () => {
    const bar = await card(`${langs}&layout=compact`);
    expect(bar).toContain('clip-path="url(#bar)"');
    const donut = await card(`${langs}&layout=donut`);
    expect(donut).not.toContain('url(#bar)');
    expect(donut.match(/<circle[^>]*stroke-dasharray/g)).toHaveLength(4);
    expect(donut).toContain('stroke-width="24"');
    expect(await card(`${langs}&layout=pie`)).toContain('stroke-width="60"');
  });

  it('hide_title, custom_title, hide_border, card_width and colours', async () => {
    expect(textsOf(await card(`${langs}&hide_title=true`))).not.toContain('Most Used Languages');
    expect(textsOf(await card(`${langs}&custom_title=Code`))[0]).toBe('Code');
    expect(frame(await card(`${langs}&hide_border=true`))).not.toContain('stroke=');
    expect(sizeOf(await card(`${langs}&card_width=500`)).width).toBe(500);
    const colored = await card(`${legend}&title_color=ff0000&text_color=00ff00&bg_color=000000`);
    expect(attribute(textAttributes(colored, 'Most Used Languages'), 'fill')).toBe('#ff0000');
    expect(attribute(textAttributes(colored, 'Python 24.0%'), 'fill')).toBe('#00ff00');
    expect(attribute(frame(colored), 'fill')).toBe('#000000');
  });

  it('locale translates the title', async () => {
    expect(textsOf(await card(`${langs}&locale=ja`))[0]).toBe('最もよく使っている言語');
    expect(textsOf(await card(`${langs}&locale=es&layout=donut`))[0]).toBe('Lenguajes más usados');
    expect(textsOf(await card(`${langs}&locale=nope`))[0]).toBe('Most Used Languages');
  });

  it('pin: repo, show_owner, theme and colours', async () => {
    const pin = await card('/api/pin/?username=ada&repo=engine');
    expect(textsOf(pin)[0]).toBe('engine');
    expect(textsOf(await card('/api/pin/?username=ada&repo=engine&show_owner=true'))[0]).toBe('ada/engine');
    const dark = await card('/api/pin/?username=ada&repo=engine&theme=dark&title_color=ff0000');
    expect(attribute(frame(dark), 'fill')).toBe('#151515');
    expect(attribute(textAttributes(dark, 'engine'), 'fill')).toBe('#ff0000');
  });

  it('pin: locale translates the archived and template markers', async () => {
    expect(textsOf(await card('/api/pin/?username=ada&repo=notes'))).toContain('Archived');
    expect(textsOf(await card('/api/pin/?username=ada&repo=notes&locale=de'))).toContain('Archiviert');
    expect(textsOf(await card('/api/pin/?username=ada&repo=template-kit&locale=ja'))).toContain(
      'テンプレート',
    );
  });

  it('description_lines_count limits the description lines', () => {
    const repository = {
      nameWithOwner: 'ada/engine',
      description: 'word '.repeat(60),
      stargazerCount: 1,
      forkCount: 0,
      isArchived: false,
      isTemplate: false,
      isFork: false,
      primaryLanguage: null,
      licenseInfo: null,
    };
    const lines = (count?: number) =>
      textsOf(
        renderRepo({ repository, showDescription: true, theme: getTheme('dark'), descriptionLines: count }),
      ).filter((text) => text.startsWith('word')).length;
    expect(lines()).toBe(3);
    expect(lines(1)).toBe(1);
  });
});

describe('github-readme-streak-stats /streak?user=', () => {
  const base = '/streak?user=ada';

  it('hide_* sections, card_width, mode=weekly, date_format', async () => {
    const plain = textsOf(await card(base));
    expect(plain).toEqual(
      expect.arrayContaining(['Total Contributions', 'Current Streak', 'Longest Streak']),
    );
    const hidden = textsOf(
      await card(`${base}&hide_total_contributions=true&hide_current_streak=true&hide_longest_streak=false`),
    );
    expect(hidden).not.toContain('Total Contributions');
    expect(hidden).not.toContain('Current Streak');
    expect(hidden).toContain('Longest Streak');
    expect(sizeOf(await card(`${base}&card_width=600`)).width).toBe(600);
    expect(textsOf(await card(`${base}&mode=weekly`))).toContain('Current Week Streak');
    expect(plain).toContain('28 Dec 2022 – Present');
    expect(textsOf(await card(`${base}&date_format=%5BY.%5Dn.j`))).toContain('2022.12.28 – Present');
    expect(textsOf(await card(`${base}&date_format=M%20j%5B%2C%20Y%5D`))).toContain('Mar 10 – Mar 14');
  });

  it('short_numbers writes 15.2K for 15,188; starting_year counts from that year on', async () => {
    // grace's busy calendar sums to 15,188 contributions (the fixtures' generator).
    expect(textsOf(await card('/streak?user=grace'))).toContain('15,188');
    expect(textsOf(await card('/streak?user=grace&short_numbers=true'))).toContain('15.2K');
    // ada from 2023 on: 28 - 5 (2022) = 23; the 6-day streak across New Year is cut to 2 days,
    // so the longest is one of the 5-day streaks of 2024.
    const plain = textsOf(await card(base));
    expect(plain.slice(0, 3)).toEqual(['28', 'Total Contributions', '28 Dec 2022 – Present']);
    const from2023 = textsOf(await card(`${base}&starting_year=2023`));
    expect(from2023.slice(0, 3)).toEqual(['23', 'Total Contributions', '1 Jan 2023 – Present']);
    expect(from2023).toContain('27 Feb 2024 – 2 Mar 2024');
    expect(plain).toContain('28 Dec 2022 – 2 Jan 2023');
  });

  it('card_height makes the card taller with the content centred; never shorter than it', async () => {
    const plain = await card(base);
    expect(sizeOf(plain).height).toBe(190);
    const tall = await card(`${base}&card_height=300`);
    expect(sizeOf(tall).height).toBe(300);
    expect(tall).toContain('<g transform="translate(0 55)">');
    expect(attribute(frame(tall), 'height')).toBe('299');
    expect(await card(`${base}&card_height=170`)).toBe(plain);
    // The card is a still image: disable_animations has nothing to turn off.
    expect(plain).not.toContain('@keyframes');
    expect(await card(`${base}&disable_animations=true`)).toBe(plain);
  });

  it('exclude_days draws their note at the bottom left, coloured by excludeDaysLabel', async () => {
    const note = await card(`${base}&exclude_days=Sat,Sun&excludeDaysLabel=ff0000`);
    expect(attribute(textAttributes(note, '* Excluding Sun, Sat'), 'fill')).toBe('#ff0000');
    expect(attribute(textAttributes(note, '* Excluding Sun, Sat'), 'x')).toBe('20');
    expect(textsOf(await card(`${base}&exclude_days=Sun`))).toContain('* Excluding Sun');
    expect(textsOf(await card(base)).join(' ')).not.toContain('Excluding');
    // Weekly streaks count whole weeks: they draw no note.
    expect(textsOf(await card(`${base}&exclude_days=Sun&mode=weekly`)).join(' ')).not.toContain('Excluding');
  });

  it('locale translates the labels and writes dates the locale way', async () => {
    const german = textsOf(await card(`${base}&locale=de`));
    expect(german).toEqual(
      expect.arrayContaining([
        'Gesamte Beiträge',
        'Aktuelle Serie',
        'Längste Serie',
        '28. Dez. 2022 – Heute',
      ]),
    );
    expect(textsOf(await card(`${base}&locale=de&mode=weekly`))).toEqual(
      expect.arrayContaining(['Wochenserie', 'Längste Wochenserie']),
    );
    const japanese = textsOf(await card(`${base}&locale=ja`));
    expect(japanese).toContain('2022年12月28日 – 今');
    // date_format wins over the locale's dates; Turkish has no week-streak words: English stays.
    expect(textsOf(await card(`${base}&locale=fr&date_format=%5BY.%5Dn.j`))).toContain(
      "2022.12.28 – Aujourd'hui",
    );
    const turkish = textsOf(await card(`${base}&locale=tr&mode=weekly`));
    expect(turkish).toEqual(
      expect.arrayContaining(['Toplam Katkı', 'Current Week Streak', 'Longest Week Streak']),
    );
    expect(await card(`${base}&locale=xx-yy`)).toBe(await card(base));
  });

  it('each colour parameter colours its element', async () => {
    const svg = await card(
      `${base}&background=101010&border=202020&stroke=303030&ring=404040&fire=505050&currStreakNum=606060&sideNums=707070&currStreakLabel=808080&sideLabels=909090&dates=a0a0a0`,
    );
    expect(attribute(frame(svg), 'fill')).toBe('#101010');
    expect(attribute(frame(svg), 'stroke')).toBe('#202020');
    expect(svg).toContain('stroke="#303030"/>');
    expect(svg).toContain('stroke="#404040" stroke-width="5" stroke-linecap="round"');
    expect(svg).toContain('fill="none" stroke="#505050"');
    expect(attribute(textAttributes(svg, '5'), 'fill')).toBe('#606060');
    expect(attribute(textAttributes(svg, '28'), 'fill')).toBe('#707070');
    expect(attribute(textAttributes(svg, 'Current Streak'), 'fill')).toBe('#808080');
    expect(attribute(textAttributes(svg, 'Longest Streak'), 'fill')).toBe('#909090');
    expect(attribute(textAttributes(svg, '28 Dec 2022 – Present'), 'fill')).toBe('#a0a0a0');
  });

  it('theme, hide_border, border_radius and a gradient background', async () => {
    expect(attribute(frame(await card(base)), 'fill')).toBe('#fff5f1');
    expect(attribute(frame(await card(`${base}&theme=dark`)), 'fill')).toBe('#151515');
    expect(frame(await card(`${base}&hide_border=true`))).not.toContain('stroke=');
    expect(attribute(frame(await card(`${base}&border_radius=12`)), 'rx')).toBe('12');
    const gradient = await card(`${base}&background=45,EB5454,F0B341`);
    expect(gradient).toContain(
      '<stop offset="0%" stop-color="#eb5454"/><stop offset="100%" stop-color="#f0b341"/>',
    );
    expect(attribute(frame(gradient), 'fill')).toBe('url(#compat-background)');
  });
});

describe('github-profile-trophy /trophy', () => {
  const base = '/trophy?username=ada';
  const panels = (svg: string) => svg.match(/<rect [^>]*width="109"/g)?.length ?? 0;

  it('column, row, margin-w, margin-h change the grid', async () => {
    // A query of shared names only is ours (3 columns); any of theirs makes it theirs (6).
    expect(sizeOf(await card(base)).width).toBe(3 * 110 + 2 * 6 + 2);
    expect(sizeOf(await card(`${base}&no-frame=false`))).toEqual({ width: 6 * 110 + 5 * 6 + 2, height: 112 });
    expect(sizeOf(await card(`${base}&column=2`))).toEqual({ width: 228, height: 3 * 110 + 2 * 6 + 2 });
    expect(panels(await card(`${base}&column=2&row=1`))).toBe(2);
    expect(sizeOf(await card(`${base}&column=-1`)).width).toBe(6 * 110 + 5 * 6 + 2);
    expect(sizeOf(await card(`${base}&column=3&margin-w=20&margin-h=30`))).toEqual({
      width: 3 * 110 + 2 * 20 + 2,
      height: 2 * 110 + 30 + 2,
    });
  });

  it('no-bg, no-frame, title, rank, theme', async () => {
    const plain = await card(base);
    expect(panels(plain)).toBe(6);
    expect(panels(await card(`${base}&no-frame=true`))).toBe(0);
    expect(await card(`${base}&no-bg=true`)).toMatch(/<rect [^>]*fill="none" stroke=/);
    expect(textsOf(await card(`${base}&title=Stars,Followers`))).toEqual([
      'AAA',
      'Stars',
      '157',
      'B',
      'Followers',
      '12',
    ]);
    const ranks = textsOf(await card(`${base}&rank=B`)).filter((text) => /^[A-S]+$/.test(text));
    expect(ranks).toEqual(['B', 'B', 'B']);
    expect(textsOf(await card(`${base}&rank=-B,-C`)).filter((text) => /^[A-S]+$/.test(text))).toEqual([
      'AAA',
      'A',
    ]);
    expect(attribute(textAttributes(await card(`${base}&theme=onedark`), 'Stars'), 'fill')).toBe('#e5c07b');
    expect(attribute(textAttributes(await card(`${base}&theme=gitdimmed`), 'Stars'), 'fill')).toBe('#58a6ff');
  });
});

describe('readme-typing-svg /typing', () => {
  // `lines` alone is also our parameter: each query below names one only they use, so it is theirs.
  it('lines, separator, multiline, width, height', async () => {
    const single = await card('/typing?lines=First;Second&multiline=false');
    expect(single).toContain('<title id="title">First / Second</title>');
    expect(sizeOf(single)).toEqual({ width: 400, height: 50 });
    // One line at a time: both lines on the same baseline.
    const baselines = (svg: string) => [...svg.matchAll(/clip-path="url\(#k\d\)"/g)].length;
    expect(baselines(single)).toBe(2);
    expect(attribute(textAttributes(single, 'First'), 'y')).toBe(
      attribute(textAttributes(single, 'Second'), 'y'),
    );
    const multi = await card('/typing?lines=First;Second&multiline=true&height=100');
    expect(Number(attribute(textAttributes(multi, 'Second'), 'y'))).toBeGreaterThan(
      Number(attribute(textAttributes(multi, 'First'), 'y')),
    );
    expect(sizeOf(multi).height).toBe(100);
    expect(await card('/typing?lines=a|b&separator=|')).toContain('<title id="title">a / b</title>');
    expect(sizeOf(await card('/typing?lines=x&width=600&height=90'))).toEqual({ width: 600, height: 90 });
    // Ten long lines (over 600 characters in all) are read whole.
    const lines = Array.from({ length: 10 }, (_, index) => `${index} ${'x'.repeat(60)}`);
    expect(await card(`/typing?multiline=true&lines=${lines.join(';')}`)).toContain(
      `<title id="title">${lines.join(' / ')}</title>`,
    );
  });

  it('font, size, color, background, letterSpacing', async () => {
    const svg = await card('/typing?lines=Hi&font=Fira+Code&size=30&color=ff0000&background=00ff00');
    // The named family first, then a fallback of its kind (Fira Code is monospaced).
    expect(svg).toContain(
      'font-family="&#39;Fira Code&#39;,ui-monospace,SFMono-Regular,Menlo,Consolas,DejaVu Sans Mono,monospace"',
    );
    expect(await card('/typing?lines=Hi&font=Roboto')).toContain(
      'font-family="&#39;Roboto&#39;,Verdana,Geneva,DejaVu Sans,sans-serif"',
    );
    expect(svg).toContain('font-size="30" fill="#ff0000"');
    expect(attribute(frame(svg), 'fill')).toBe('#00ff00');
    const charX = (svg: string) => attribute(textAttributes(svg, 'Hi'), 'x')!.split(' ').map(Number);
    const plain = charX(await card('/typing?lines=Hi&size=20'));
    const spaced = charX(await card('/typing?lines=Hi&size=20&letterSpacing=10px'));
    expect(spaced[1]! - spaced[0]!).toBeCloseTo(plain[1]! - plain[0]! + 10, 1);
  });

  it('weight sets the font weight (and bold widths from 600 on); random shuffles the lines', async () => {
    const plain = await card('/typing?lines=Hello&center=true');
    expect(plain).not.toContain('font-weight=');
    const bold = await card('/typing?lines=Hello&center=true&weight=700');
    expect(bold).toContain('font-size="20" font-weight="700" fill=');
    const lastX = (svg: string) => Number(attribute(textAttributes(svg, 'Hello'), 'x')!.split(' ').at(-1));
    const firstX = (svg: string) => Number(attribute(textAttributes(svg, 'Hello'), 'x')!.split(' ')[0]);
    // Bold Verdana is wider: the last letter sits further from the first.
    expect(lastX(bold) - firstX(bold)).toBeGreaterThan(lastX(plain) - firstX(plain));
    expect(await card('/typing?lines=Hello&weight=350')).toContain('font-weight="400"');

    const lines = 'One;Two;Three;Four;Five;Six;Seven;Eight';
    const order = (svg: string) => textsOf(svg).filter((text) => text !== '|');
    expect(order(await card(`/typing?lines=${lines}`))).toEqual(lines.split(';'));
    const shuffled = order(await card(`/typing?lines=${lines}&random=true`));
    expect(shuffled).not.toEqual(lines.split(';'));
    expect([...shuffled].sort()).toEqual(lines.split(';').sort());
    // The same URL draws the same order (the card stays cacheable).
    expect(order(await card(`/typing?lines=${lines}&random=true`))).toEqual(shuffled);
  });

  it('center and vCenter move the text into the middle', async () => {
    const x = (svg: string) => Number(attribute(textAttributes(svg, 'Hi'), 'x')!.split(' ')[0]);
    const y = (svg: string) => Number(attribute(textAttributes(svg, 'Hi'), 'y'));
    const plain = await card('/typing?lines=Hi&height=100&center=false');
    expect(x(await card('/typing?lines=Hi&height=100&center=true'))).toBeGreaterThan(150);
    expect(x(plain)).toBe(14);
    expect(y(await card('/typing?lines=Hi&height=100&vCenter=true'))).toBeGreaterThan(y(plain) + 20);
  });

  it('duration, pause and repeat change the timing', async () => {
    const cycle = (svg: string) => Number(/\.m\{animation-duration:([\d.]+)s/.exec(svg)![1]);
    // Two lines of 5 s each (their default), each then shown 1 s (+ pause): 0.3 + 5 + 1 + 5 + 1 s.
    expect(cycle(await card('/typing?lines=First;Second&multiline=false'))).toBeCloseTo(12.3, 3);
    expect(cycle(await card('/typing?lines=First;Second&duration=1000'))).toBeCloseTo(4.3, 3);
    expect(cycle(await card('/typing?lines=First;Second&duration=1000&pause=500'))).toBeCloseTo(5.3, 3);
    expect(await card('/typing?lines=Hi&repeat=true')).toContain('animation-iteration-count:infinite');
    expect(await card('/typing?lines=Hi&repeat=false')).toContain(
      'animation-iteration-count:1;animation-fill-mode:forwards',
    );
  });
});

describe('skill-icons /icons, ghpvc, shields /badge/...', () => {
  it('icons: i (ids and aliases), theme, perline', async () => {
    const svg = await card('/icons?i=js,ts,py,nodejs,postgresql,unknownthing');
    expect(svg).toContain(
      '<title id="title">Skills: JavaScript, TypeScript, Python, Node.js, PostgreSQL</title>',
    );
    // Their artwork: the dark tile by default, the light variant with theme=light.
    expect(svg).toContain('fill="#242938"');
    expect(await card('/icons?i=js&theme=light')).not.toContain('fill="#242938"');
    const oneRow = sizeOf(await card('/icons?i=js,ts,py,go'));
    const twoRows = sizeOf(await card('/icons?i=js,ts,py,go&perline=2'));
    expect(twoRows.width).toBeLessThan(oneRow.width);
    expect(twoRows.height).toBeGreaterThan(oneRow.height);
  });

  it('ghpvc counts per username (shared with /visitors) with label, color, style, base, abbreviated', async () => {
    const app = bed().app();
    const title = async (path: string) => /<title id="title">([^<]*)</.exec((await app(path)).body)![1];
    expect(await title('/ghpvc/?username=counter-test')).toBe('Profile views: 1');
    expect(await title('/ghpvc/?username=counter-test&label=Views')).toBe('Views: 2');
    expect(await title('/visitors?username=counter-test')).toBe('visitors: 3');
    expect(await title('/ghpvc/?username=counter-test&base=1000')).toBe('Profile views: 1,004');
    expect(await title('/ghpvc/?username=counter-test&base=12200&abbreviated=true')).toBe(
      'Profile views: 12.2K',
    );
    const colored = (await app('/ghpvc/?username=c2&color=dc143c&labelColor=123456')).body;
    expect(colored).toContain('fill="#dc143c"');
    expect(colored).toContain('fill="#123456"');
    expect((await app('/ghpvc/?username=c2&color=orange')).body).toContain('fill="#ea7233"');
    expect(sizeOf((await app('/ghpvc/?username=c2&style=for-the-badge')).body).height).toBe(28);
    expect((await app('/ghpvc/?username=c2&style=flat-square')).body).toContain(
      'shape-rendering="crispEdges"',
    );
    expect((await app('/ghpvc/?username=c2')).headers.get('cache-control')).toContain('no-store');
  });

  it('badge path: label, message, colour, escapes and .svg', async () => {
    expect(textsOf(await card('/badge/any_text-you_like-blue'))).toContain('any text');
    const escaped = await card('/badge/a--b__c_d-message-ff69b4');
    expect(escaped).toContain('<title id="title">a-b_c d: message</title>');
    expect(escaped).toContain('fill="#ff69b4"');
    expect(await card('/badge/License-MIT-yellow.svg')).toContain('fill="#d8b800"');
    const messageOnly = await card('/badge/just%20the%20message-8A2BE2');
    expect(messageOnly).toContain('<title id="title">just the message</title>');
    expect(messageOnly).toContain('fill="#8a2be2"');
  });

  it('badge cacheSeconds lengthens the cache lifetime (never below our day, as shields)', async () => {
    const cacheControl = async (query: string) =>
      (await bed().app()(`/badge/build-passing-green${query}`)).headers.get('cache-control');
    expect(await cacheControl('')).toBe(
      'public, max-age=86400, s-maxage=86400, stale-while-revalidate=604800',
    );
    expect(await cacheControl('?cacheSeconds=604800')).toBe(
      'public, max-age=604800, s-maxage=604800, stale-while-revalidate=604800',
    );
    expect(await cacheControl('?cacheSeconds=60')).toBe(await cacheControl(''));
    const body = async (query: string) => (await bed().app()(`/badge/build-passing-green${query}`)).body;
    expect(await body('?cacheSeconds=604800')).toBe(await body(''));
  });

  it('badge query: style, label, color, labelColor, logo, logoColor', async () => {
    const path = '/badge/build-passing-green';
    const plain = await card(path);
    expect(sizeOf(await card(`${path}?style=for-the-badge`)).height).toBe(28);
    expect(await card(`${path}?style=flat-square`)).toContain('shape-rendering="crispEdges"');
    expect(await card(`${path}?label=ci`)).toContain('<title id="title">ci: passing</title>');
    expect(await card(`${path}?color=red`)).toContain('fill="#dd4343"');
    expect(await card(`${path}?labelColor=abcdef`)).toContain('<rect width="');
    expect(await card(`${path}?labelColor=abcdef`)).toContain('fill="#abcdef"');
    const logo = await card(`${path}?logo=github&logoColor=ff0000`);
    expect(logo).toContain('<path transform="translate(5 3) scale(0.58)"');
    expect(logo).toMatch(/scale\(0\.58\)" d="M12[^"]*" fill="#ff0000"/);
    expect(sizeOf(logo).width).toBe(sizeOf(plain).width + 17);
    // A logo we do not ship is left out; the badge still draws.
    expect(await card(`${path}?logo=no-such-logo`)).toBe(plain);
  });
});
