/**
 * @module The drop-in promise: example URLs from the documentation of each service we replace,
 * with only the host changed (and the account swapped for one the fake GitHub knows), answer
 * 200 with an SVG card that renders; our own routes beside them keep working.
 */
import { describe, expect, it } from 'vitest';
import { textsOf, useGitHubTestBed } from './support/github-app.js';
import { expectOnlyDrawing, expectRenderableSvg } from './support/svg.js';

const bed = useGitHubTestBed();

/** [project, documented path and query (host removed; their login replaced by `ada`)]. */
const documentedUrls: ReadonlyArray<readonly [string, string]> = [
  // github-readme-stats README
  ['github-readme-stats', '/api?username=ada'],
  ['github-readme-stats', '/api?username=ada&show_icons=true&theme=radical'],
  ['github-readme-stats', '/api?username=ada&hide=contribs,prs'],
  [
    'github-readme-stats',
    '/api?username=ada&show=reviews,discussions_started,discussions_answered,prs_merged,prs_merged_percentage',
  ],
  ['github-readme-stats', '/api?username=ada&count_private=true'],
  ['github-readme-stats', '/api?username=ada&include_all_commits=true'],
  ['github-readme-stats', '/api?username=ada&hide_rank=true'],
  ['github-readme-stats', '/api?username=ada&rank_icon=github'],
  ['github-readme-stats', '/api?username=ada&show_icons=true&locale=cn'],
  [
    'github-readme-stats',
    '/api?username=ada&theme=dark&show_icons=true&hide_border=true&disable_animations=true',
  ],
  [
    'github-readme-stats',
    '/api?username=ada&show_icons=true&title_color=fff&icon_color=79ff97&text_color=9f9f9f&bg_color=151515',
  ],
  ['github-readme-stats', '/api?username=ada&bg_color=30,e96443,904e95&title_color=fff&text_color=fff'],
  [
    'github-readme-stats',
    '/api?username=ada&theme=tokyonight&card_width=500&line_height=30&number_format=long',
  ],
  ['github-readme-stats', '/api?username=ada&theme=github_dark&custom_title=Hello&border_radius=10'],
  ['github-readme-stats', '/api?username=ada&theme=transparent&hide_title=true&ring_color=ff0000'],
  ['github-readme-stats', '/api/top-langs/?username=ada'],
  ['github-readme-stats', '/api/top-langs/?username=ada&layout=compact'],
  ['github-readme-stats', '/api/top-langs/?username=ada&layout=donut'],
  ['github-readme-stats', '/api/top-langs/?username=ada&layout=donut-vertical'],
  ['github-readme-stats', '/api/top-langs/?username=ada&layout=pie'],
  ['github-readme-stats', '/api/top-langs/?username=ada&hide=javascript,html'],
  ['github-readme-stats', '/api/top-langs/?username=ada&langs_count=8'],
  [
    'github-readme-stats',
    '/api/top-langs/?username=ada&exclude_repo=github-readme-stats,anuraghazra.github.io',
  ],
  ['github-readme-stats', '/api/top-langs/?username=ada&size_weight=0.5&count_weight=0.5'],
  ['github-readme-stats', '/api/top-langs/?username=ada&hide_progress=true'],
  ['github-readme-stats', '/api/pin/?username=ada&repo=engine'],
  ['github-readme-stats', '/api/pin/?username=ada&repo=engine&theme=dark&show_owner=true'],
  ['github-readme-stats', '/api/pin/?username=ada&repo=notes&description_lines_count=1'],
  // github-readme-streak-stats README
  ['github-readme-streak-stats', '/streak?user=ada'],
  ['github-readme-streak-stats', '/streak?user=ada&theme=dark'],
  ['github-readme-streak-stats', '/streak?user=ada&theme=dark&hide_border=true'],
  ['github-readme-streak-stats', '/streak?user=ada&date_format=M%20j%5B%2C%20Y%5D'],
  ['github-readme-streak-stats', '/streak?user=ada&mode=weekly'],
  ['github-readme-streak-stats', '/streak?user=ada&exclude_days=Sun,Sat'],
  ['github-readme-streak-stats', '/streak?user=ada&hide_total_contributions=true&hide_longest_streak=true'],
  ['github-readme-streak-stats', '/streak?user=ada&card_width=600&border_radius=10'],
  ['github-readme-streak-stats', '/streak?user=ada&theme=tokyonight_duo&background=45,EB5454,F0B341'],
  [
    'github-readme-streak-stats',
    '/streak?user=ada&background=FFFEFE&border=E4E2E2&stroke=E4E2E2&ring=FB8C00&fire=FB8C00&currStreakNum=151515&sideNums=151515&currStreakLabel=FB8C00&sideLabels=151515&dates=464646',
  ],
  ['github-readme-streak-stats', '/api/streak?user=ada&locale=de&short_numbers=true&type=svg'],
  // github-profile-trophy README
  ['github-profile-trophy', '/trophy?username=ada'],
  ['github-profile-trophy', '/trophy?username=ada&theme=onedark'],
  ['github-profile-trophy', '/trophy?username=ada&theme=flat'],
  ['github-profile-trophy', '/trophy?username=ada&title=Followers'],
  ['github-profile-trophy', '/trophy?username=ada&title=MultiLanguage,Followers'],
  ['github-profile-trophy', '/trophy?username=ada&rank=S'],
  ['github-profile-trophy', '/trophy?username=ada&rank=-C,-B'],
  ['github-profile-trophy', '/trophy?username=ada&column=2'],
  ['github-profile-trophy', '/trophy?username=ada&column=7'],
  ['github-profile-trophy', '/trophy?username=ada&column=-1'],
  ['github-profile-trophy', '/trophy?username=ada&row=2&column=3'],
  ['github-profile-trophy', '/trophy?username=ada&margin-w=15&margin-h=15'],
  ['github-profile-trophy', '/trophy?username=ada&no-bg=true'],
  ['github-profile-trophy', '/trophy?username=ada&no-frame=true'],
  ['github-profile-trophy', '/api/trophy?username=ada&theme=juicyfresh&no-frame=true&no-bg=true&margin-w=4'],
  // readme-typing-svg README
  ['readme-typing-svg', '/typing?lines=First+line+of+text;Second+line+of+text'],
  [
    'readme-typing-svg',
    '/typing?font=Fira+Code&pause=1000&color=F7F7F7&background=233D6D00&center=true&vCenter=true&width=435&lines=The+five+boxing+wizards+jump+quickly',
  ],
  ['readme-typing-svg', '/typing?lines=Hello,+world!;Nice+to+meet+you&multiline=true&height=100'],
  ['readme-typing-svg', '/typing?lines=Fast&duration=1000&repeat=false&size=30'],
  // Its lines have no length limit: a long one alone must not become our 400 card.
  ['readme-typing-svg', `/typing?lines=${'A+long+line+of+typed+text+'.repeat(8)}`],
  ['readme-typing-svg', '/typing?lines=one|two&separator=|&letterSpacing=10px&weight=600&random=true'],
  // skill-icons README
  ['skill-icons', '/icons?i=js,html,css,wasm'],
  ['skill-icons', '/icons?i=aws,gcp,azure,react,vue,flutter&perline=3'],
  ['skill-icons', '/icons?i=java,kotlin,nodejs,figma&theme=light'],
  ['skill-icons', '/icons?i=all'],
  ['skill-icons', '/api/icons?i=ts,py,go,rust,tailwind,nextjs,postgres,docker'],
  // github-profile-views-counter (ghpvc) README
  ['ghpvc', '/ghpvc/?username=ada'],
  ['ghpvc', '/ghpvc/?username=ada&label=Profile%20views&color=0e75b6&style=flat'],
  ['ghpvc', '/ghpvc/?username=ada&style=for-the-badge'],
  ['ghpvc', '/ghpvc/?username=ada&style=plastic&color=dc143c'],
  ['ghpvc', '/ghpvc/?username=ada&style=pixel'],
  ['ghpvc', '/ghpvc/?username=ada&base=1000&abbreviated=true'],
  // shields.io static badges
  ['shields', '/badge/any_text-you_like-blue'],
  ['shields', '/badge/just%20the%20message-8A2BE2'],
  ['shields', '/badge/License-MIT-yellow.svg'],
  ['shields', '/badge/build-passing-brightgreen?style=for-the-badge&logo=github&logoColor=white'],
  ['shields', '/badge/dynamic--badge-with__underscores-ff69b4?style=flat-square&labelColor=abcdef'],
  ['shields', '/badge/TypeScript-007ACC?style=for-the-badge&logo=typescript&logoColor=white'],
  ['shields', '/badge/style-plastic-green?style=plastic&logo=nodedotjs'],
  ['shields', '/badge/style-social-grey?style=social&cacheSeconds=3600&link=https://example.com'],
  ['shields', '/api/badge/-left-red'],
];

describe('documented URLs of the replaced services', () => {
  it.each(documentedUrls)('%s: %s answers 200 with a card', async (_project, path) => {
    const response = await bed().app()(path);
    expect(response.status, `${path}: ${textsOf(response.body).join(' | ')}`).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expectRenderableSvg(response.body);
    expectOnlyDrawing(response.body);
    expect(response.body).not.toContain('Error ');
  });
});

describe('the routes around them keep their meaning', () => {
  it('serves the gallery at / and /api without a username', async () => {
    for (const path of ['/', '/api', '/api/']) {
      const response = await bed().app()(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
    }
  });

  it('keeps every /api/<endpoint> alias and our own /badge?label=', async () => {
    const app = bed().app();
    expect(await app('/api/stats?username=ada')).toMatchObject({ status: 200 });
    expect((await app('/api/stats?username=ada')).body).toBe((await app('/stats?username=ada')).body);
    const ours = await app('/badge?label=build&message=passing&color=success');
    expect(ours.status).toBe(200);
    expect(textsOf(ours.body)).toEqual(['build', 'build', 'passing', 'passing']);
    expect((await app('/api/badge?label=build&message=passing&color=success')).body).toBe(ours.body);
  });

  it('draws a github-readme-stats URL byte for byte as the same card in our parameters', async () => {
    const app = bed().app();
    const theirs = await app('/api?username=ada&show_icons=true&theme=radical&include_all_commits=true');
    const ours = await app('/stats?username=ada&showIcons=true&theme=radical&allCommits=true');
    expect(theirs.body).toBe(ours.body);
    expect(theirs.headers.get('etag')).toBe(ours.headers.get('etag'));
  });

  it('answers a gist or WakaTime URL with a card that says what to use instead', async () => {
    for (const path of [
      '/api/gist?id=bbfce31e0217a3689c8d961a356cb10d',
      '/api/wakatime?username=ada&theme=dark',
    ]) {
      const response = await bed().app()(path);
      expect(response.status).toBe(200);
      expectRenderableSvg(response.body);
      expect(textsOf(response.body).join(' ')).toMatch(/readme-cards does not draw (gist|WakaTime) cards/);
      expect(response.headers.get('cache-control')).toContain('max-age=600');
    }
  });

  it('keeps strict validation of our own parameters on the shared paths', async () => {
    const app = bed().app();
    // A query naming one of our parameters is ours: its values are checked.
    expect((await app('/streak?username=ada&theme=tokyonight')).status).toBe(400);
    expect((await app('/trophy?username=ada&column=7&noFrame=true')).status).toBe(400);
    expect((await app('/typing?fontSize=99')).status).toBe(400);
    expect((await app('/typing?lines=;;&cursor=true')).status).toBe(400);
    // `lines` alone is also a readme-typing-svg URL, which took any text: it draws.
    expect((await app('/typing?lines=;;')).status).toBe(200);
    // Without a username no card can be drawn on either side.
    expect((await app('/api?username=-bad-')).status).toBe(400);
    expect((await app('/streak?user=')).status).toBe(400);
  });

  it('reports a missing account of a drop-in URL as ours would (404 card)', async () => {
    const response = await bed().app()('/api?username=nobody-here');
    expect(response.status).toBe(404);
    expectRenderableSvg(response.body);
  });
});
