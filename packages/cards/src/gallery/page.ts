/**
 * @module The HTML gallery and builder served at `/`: every card with examples, and a form per
 * endpoint that builds the image URL and the Markdown snippet. Plain HTML, CSS and a small
 * inline script; the parameter facts come from the endpoints' own tables.
 */
import type { Endpoint } from '../http/endpoint.js';
import { escapeXml } from '../svg/escape.js';
import { defaultThemeName, themeNames } from '../themes/index.js';
import { galleryExamples } from './examples.js';
import { galleryScript } from './script.js';
import { galleryStyle } from './style.js';

/** JSON safe inside a `<script>` element (no `</script>` or comment openers). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function section(endpoint: Endpoint): string {
  const examples = galleryExamples[endpoint.path] ?? [''];
  const id = endpoint.path.slice(1);
  const images = examples
    .map((query) => {
      const src = query ? `${endpoint.path}?${query}` : endpoint.path;
      return `<img class="example" data-src="${escapeXml(src)}" src="${escapeXml(src)}" alt="${escapeXml(endpoint.path)} example" loading="eager">`;
    })
    .join('');
  return `<section id="${escapeXml(id)}"><h2><code>${escapeXml(endpoint.path)}</code></h2><p>${escapeXml(endpoint.summary)}</p><div class="examples">${images}</div><h3>Build your own</h3><div class="build"><form class="builder" data-path="${escapeXml(endpoint.path)}" data-example="${escapeXml(examples[0] ?? '')}"></form><div class="preview"><img class="live" alt="${escapeXml(endpoint.path)} preview"></div></div><label>URL <input class="url" readonly></label><label>Markdown <input class="markdown" readonly></label></section>`;
}

/** The whole page; built once per app. */
export function renderGallery(endpoints: readonly Endpoint[]): string {
  const specs = Object.fromEntries(endpoints.map((endpoint) => [endpoint.path, endpoint.params]));
  const nav = endpoints
    .map((endpoint) => `<a href="#${escapeXml(endpoint.path.slice(1))}">${escapeXml(endpoint.path)}</a>`)
    .join('');
  const themeOptions = themeNames
    .map((name) => `<option${name === defaultThemeName ? ' selected' : ''}>${name}</option>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>readme-cards gallery</title><link rel="icon" href="data:,"><style>${galleryStyle}</style></head><body><header><h1>readme-cards</h1><p>SVG cards for README pages. Pick a card, set its parameters, copy the Markdown.</p><label>Theme for every card <select id="theme">${themeOptions}</select></label><nav>${nav}</nav></header><main>${endpoints.map(section).join('')}</main><script id="specs" type="application/json">${scriptJson(specs)}</script><script>${galleryScript}</script></body></html>`;
}
