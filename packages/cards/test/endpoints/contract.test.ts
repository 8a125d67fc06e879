/**
 * @module The spec's contract for the nine query-only endpoints, both path forms: 200 SVG that
 * parses and renders, every range edge accepted and just outside rejected, every enum value,
 * booleans, text limits. Ranges and value sets are copied from the spec by hand.
 */
import { describe, expect, it } from 'vitest';
import { themeNames } from '../../src/index.js';
import { expectBadRequest, expectRenderableSvg, testApp } from '../support/svg.js';

interface EndpointContract {
  path: string;
  /** Extra query every request needs (required parameters). */
  base: string;
  numbers?: Record<string, [min: number, max: number]>;
  enums?: Record<string, readonly string[]>;
  booleans?: readonly string[];
  /** Text parameters and their maximum length. */
  texts?: Record<string, number>;
  themed: boolean;
}

const contracts: EndpointContract[] = [
  { path: '/typing', base: '', numbers: { fontSize: [12, 48] }, texts: { cursor: 3 }, themed: true },
  {
    path: '/text',
    base: '',
    numbers: { duration: [1, 20] },
    enums: {
      animation: ['fade', 'slide', 'bounce', 'wave', 'pulse', 'glitch', 'blur-in', 'reveal', 'typewriter'],
    },
    texts: { text: 120 },
    themed: true,
  },
  {
    path: '/icon',
    base: '',
    numbers: { size: [16, 64], radius: [0, 32] },
    enums: {
      name: [
        'github',
        'x',
        'youtube',
        'linkedin',
        'instagram',
        'discord',
        'twitch',
        'reddit',
        'telegram',
        'whatsapp',
        'spotify',
        'steam',
        'stackoverflow',
        'devto',
        'hashnode',
        'website',
        'email',
      ],
    },
    themed: true,
  },
  {
    path: '/quote',
    base: '',
    enums: { alignment: ['left', 'center', 'right'] },
    texts: { text: 400, author: 80 },
    themed: true,
  },
  {
    path: '/badge',
    base: '',
    enums: {
      color: ['success', 'blue', 'error', 'warning', 'purple', 'gray'],
      animation: ['none', 'shimmer', 'pulse', 'glow', 'bounce'],
      style: ['flat', 'flat-square', 'for-the-badge'],
    },
    texts: { label: 100, message: 100 },
    themed: false,
  },
  { path: '/skills', base: '', numbers: { size: [16, 48] }, booleans: ['showLabels'], themed: true },
  {
    path: '/svg',
    base: '',
    enums: { type: ['divider', 'status', 'pill', 'card'] },
    texts: { text: 300 },
    themed: true,
  },
  {
    path: '/banner',
    base: '',
    enums: { pattern: ['dots', 'grid', 'lines', 'none'], alignment: ['center', 'left'] },
    texts: { title: 100, subtitle: 200 },
    themed: true,
  },
  {
    path: '/visitors',
    base: 'username=contract-test',
    enums: {
      color: ['%233b82f6', '%2322c55e', '%23a855f7', '%23ef4444', '%23525252'],
      style: ['flat', 'flat-square', 'for-the-badge'],
    },
    texts: { label: 60, username: 100 },
    themed: false,
  },
];

const request = testApp();

function titleCount(svg: string): number {
  return Number(/<title id="title">[^<]*: ([\d,]+)<\/title>/.exec(svg)![1]!.replaceAll(',', ''));
}

function url(contract: EndpointContract, query: string, prefix = ''): string {
  // A parameter under test replaces the same one in the base query.
  const name = query.split('=')[0];
  const base = contract.base.startsWith(`${name}=`) ? '' : contract.base;
  const parts = [base, query].filter(Boolean).join('&');
  return `${prefix}${contract.path}${parts ? `?${parts}` : ''}`;
}

async function expectCard(path: string): Promise<string> {
  const response = await request(path);
  expect(response.status, `${path}: ${response.body.slice(0, 300)}`).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  expectRenderableSvg(response.body);
  return response.body;
}

describe.each(contracts)('$path', (contract) => {
  it('answers 200 SVG at the plain and the /api path', async () => {
    const plain = await expectCard(url(contract, ''));
    const api = await expectCard(url(contract, '', '/api'));
    // The counter moves on by one per request (both paths share it); other cards are identical.
    if (contract.path === '/visitors') expect(titleCount(api)).toBe(titleCount(plain) + 1);
    else expect(api).toBe(plain);
  });

  for (const [name, [min, max]] of Object.entries(contract.numbers ?? {})) {
    it(`accepts ${name} at ${min} and ${max}`, async () => {
      await expectCard(url(contract, `${name}=${min}`));
      await expectCard(url(contract, `${name}=${max}`));
      await expectCard(url(contract, `${name}=${max}`, '/api'));
    });
    it(`rejects ${name} just outside ${min}-${max} and non-numbers`, async () => {
      const below = Number.isInteger(min) && name !== 'duration' ? min - 1 : min - 0.01;
      const above = name === 'duration' ? max + 0.01 : max + 1;
      for (const value of [below, above, 'abc', '1e1', '0x10', 'Infinity']) {
        expectBadRequest(await request(url(contract, `${name}=${value}`)), name);
      }
      expectBadRequest(await request(url(contract, `${name}=${above}`, '/api')), name);
    });
  }

  for (const [name, values] of Object.entries(contract.enums ?? {})) {
    it(`accepts every ${name} value`, async () => {
      for (const value of values) await expectCard(url(contract, `${name}=${value}`));
    });
    it(`rejects an unknown ${name}`, async () => {
      expectBadRequest(await request(url(contract, `${name}=not-a-value`)), name);
    });
  }

  for (const name of contract.booleans ?? []) {
    it(`accepts ${name} as true/false/1/0 and rejects other words`, async () => {
      for (const value of ['true', 'false', '1', '0', 'TRUE'])
        await expectCard(url(contract, `${name}=${value}`));
      expectBadRequest(await request(url(contract, `${name}=yes`)), name);
    });
  }

  for (const [name, max] of Object.entries(contract.texts ?? {})) {
    it(`treats a blank ${name} as not given`, async () => {
      const blank = await request(url(contract, `${name}=%20%20`));
      if (name === 'username') {
        expectBadRequest(blank, name);
      } else if (contract.path !== '/visitors') {
        expect(blank.status).toBe(200);
        expect(blank.body).toBe((await request(url(contract, ''))).body);
      }
    });
    it(`accepts ${name} of ${max} characters and rejects ${max + 1}`, async () => {
      await expectCard(url(contract, `${name}=${'é'.repeat(max)}`));
      expectBadRequest(await request(url(contract, `${name}=${'é'.repeat(max + 1)}`)), name);
    });
  }

  if (contract.themed) {
    it('renders in all 20 themes and rejects an unknown theme', async () => {
      expect(themeNames).toHaveLength(20);
      for (const theme of themeNames) await expectCard(url(contract, `theme=${theme}`));
      expectBadRequest(await request(url(contract, 'theme=github')), 'theme');
    });
  }

  it('ignores unknown parameters', async () => {
    await expectCard(url(contract, 'unknown=1&utm_source=readme'));
  });
});

describe('parameters that need more than a range', () => {
  it('/typing splits lines on ; and rejects an all-blank list', async () => {
    const body = await expectCard('/typing?lines=first;second;;third');
    expect(body).toContain('>first</text>');
    expect(body).toContain('>third</text>');
    // With one of our own parameters the query is ours and strictly checked (`lines` alone is
    // also a readme-typing-svg URL, which draws whatever it gets).
    expectBadRequest(await request('/typing?lines=;;&fontSize=20'), 'lines');
    expectBadRequest(await request(`/typing?lines=${'a;'.repeat(11)}&fontSize=20`), 'lines');
  });

  it('/icon accepts aliases case-insensitively', async () => {
    const x = await expectCard('/icon?name=x');
    expect(await expectCard('/icon?name=twitter')).toBe(x);
    expect(await expectCard('/icon?name=Twitter')).toBe(x);
    expect(await expectCard('/icon?name=dev.to')).toBe(await expectCard('/icon?name=devto'));
  });

  it('/skills rejects an unknown identifier and lists the closest known ones', async () => {
    const response = await request('/skills?skills=react,typescrpt');
    expectBadRequest(response, 'skills');
    expect(response.body).toContain('&quot;typescrpt&quot;');
    expect(response.body).toMatch(/closest known: typescript/);
  });

  it('/skills knows at least 60 technologies, with aliases', async () => {
    const { skillIcons } = await import('../../src/brands/skills.js');
    expect(skillIcons.size).toBeGreaterThanOrEqual(60);
    for (const id of skillIcons.keys()) expect(id).toMatch(/^[a-z0-9]+$/);
    const all = [...skillIcons.keys()];
    for (let start = 0; start < all.length; start += 40) {
      await expectCard(`/skills?skills=${all.slice(start, start + 40).join(',')}&showLabels=1`);
    }
    expect(await expectCard('/skills?skills=ts,js,k8s')).toBe(
      await expectCard('/skills?skills=typescript,javascript,kubernetes'),
    );
  });

  it('/visitors needs a username', async () => {
    expectBadRequest(await request('/visitors'), 'username');
    expectBadRequest(await request('/visitors?username='), 'username');
  });

  it('/visitors accepts its colours with or without #', async () => {
    const body = await expectCard('/visitors?username=colour-test&color=22c55e');
    expect(body).toContain('fill="#22c55e"');
  });
});
