/**
 * @module shields' `logo=` and skill-icons' `i=` draw every simple-icons slug on Node: the Node options
 * (`appOptionsFromEnvironment`, what `readme-cards serve` and the Vercel function use) carry the
 * catalogue read from the installed package, while an app without one draws the shipped logos
 * only. The expected paths come from the simple-icons package itself.
 */
import { siGitea, siKotlin, siNodedotjs } from 'simple-icons';
import { describe, expect, it } from 'vitest';
import { appOptionsFromEnvironment } from '../../src/adapter/node/environment.js';
import { logoFromSvg } from '../../src/adapter/node/simple-icons-on-disk.js';
import { createApp } from '../../src/index.js';
import { createMemoryVisitorStore } from '../../src/store/visitor-store.js';

const nodeApp = async () =>
  createApp(
    await appOptionsFromEnvironment({}, undefined, { visitorsWithoutStore: createMemoryVisitorStore }),
  );

async function badge(app: ReturnType<typeof createApp>, query: string): Promise<string> {
  const response = await app.request(`/badge/build-passing-green?${query}`);
  expect(response.status).toBe(200);
  return response.text();
}

describe('shields logo= on Node', () => {
  it('draws logos the cards do not ship, found by slug or by title', async () => {
    const app = await nodeApp();
    expect(await badge(app, 'logo=gitea&logoColor=ff0000')).toContain(`d="${siGitea.path}" fill="#ff0000"`);
    // Titles are written the way shields accepts them: `Kotlin`, `node.js`.
    expect(await badge(app, 'logo=Kotlin')).toContain(`d="${siKotlin.path}"`);
    expect(await badge(app, 'logo=node.js')).toContain(`d="${siNodedotjs.path}"`);
  });

  it('draws the badge without a logo for unknown slugs and path tricks', async () => {
    const app = await nodeApp();
    const plain = await badge(app, '');
    for (const logo of ['no-such-logo', '../../package', '%2e%2e%2fpackage', 'x'.repeat(200)])
      expect(await badge(app, `logo=${logo}`), logo).toBe(plain);
  });

  it('without a catalogue (the Workers entry) only the shipped logos are drawn', async () => {
    const app = createApp();
    expect(await badge(app, 'logo=gitea')).toBe(await badge(app, ''));
    expect(await badge(app, 'logo=github')).toContain('scale(0.58)');
  });

  it('draws skill-icons ids outside our skills catalogue as simple-icons logos', async () => {
    const response = await (await nodeApp()).request('/icons?i=js,gitea,no-such-thing,gitea');
    expect(response.status).toBe(200);
    const svg = await response.text();
    expect(svg).toContain('<title id="title">Skills: JavaScript, Gitea</title>');
    // In its brand colour, as the shipped skills are.
    expect(svg).toContain(`d="${siGitea.path}" fill="#${siGitea.hex.toLowerCase()}"`);
    const shippedOnly = await (await createApp().request('/icons?i=js,gitea')).text();
    expect(shippedOnly).toContain('<title id="title">Skills: JavaScript</title>');
  });

  it('takes only path data from an icon file', () => {
    expect(logoFromSvg('<svg><title>A &amp; B</title><path d="M0 0h24v24H0z"/></svg>')).toEqual({
      title: 'A & B',
      hex: null,
      path: 'M0 0h24v24H0z',
      paint: 'fill',
    });
    expect(logoFromSvg('<svg><title>X</title><path d="M0 0" onload="x"/></svg>')?.path).toBe('M0 0');
    expect(logoFromSvg('<svg><title>X</title><path d="url(#a)"/></svg>')).toBeUndefined();
    expect(logoFromSvg('<svg><path d="M0 0"/></svg>')).toBeUndefined();
  });
});
