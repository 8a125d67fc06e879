/**
 * @module Users' URLs of the replaced projects that still went wrong (issue 28): each check
 * fails on the code before the fix.
 */
import { describe, expect, it } from 'vitest';
import { textsOf, useGitHubTestBed } from './support/github-app.js';
import { expectRenderableSvg } from './support/svg.js';

const bed = useGitHubTestBed();

async function card(path: string): Promise<string> {
  const response = await bed().app()(path);
  expect(response.status, `${path}: ${textsOf(response.body).join(' | ')}`).toBe(200);
  expectRenderableSvg(response.body);
  return response.body;
}

describe('github-readme-streak-stats timezone', () => {
  it('counts "today" in the zone given, as their README documents', async () => {
    // 12:00 UTC on 15 March is 02:00 on the 16th at UTC+14: the empty 15th breaks the streak.
    const utc = textsOf(await card('/streak?user=ada'));
    expect(utc[3]).toBe('5');
    const kolkata = textsOf(await card('/streak?user=ada&timezone=Asia/Kolkata'));
    expect(kolkata[3]).toBe('5');
    const kiritimati = textsOf(await card('/streak?user=ada&timezone=Pacific/Kiritimati&theme=dark'));
    expect(kiritimati[3]).toBe('0');
    expect(kiritimati[5]).toBe('No streak');
  });

  it('answers 400 naming the parameter for a zone that does not exist', async () => {
    const response = await bed().app()('/streak?user=ada&timezone=Mars/Base');
    expect(response.status).toBe(400);
    expect(response.body).toContain('timezone');
  });
});
