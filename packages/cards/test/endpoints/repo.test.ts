/**
 * @module /repo and /stars against the fake GitHub.
 */
import { describe, expect, it } from 'vitest';
import { textsOf, useGitHubTestBed } from '../support/github-app.js';
import { expectRenderableSvg } from '../support/svg.js';

const bed = useGitHubTestBed();

describe('/repo', () => {
  it('shows name, description, language, stars, forks and licence', async () => {
    const response = await bed().app()('/repo?repo=ada/engine');
    expectRenderableSvg(response.body);
    expect(textsOf(response.body)).toEqual([
      'ada/engine',
      'Analytical engine & <notes>',
      'TypeScript',
      '120',
      '10',
      'MIT',
    ]);
  });

  it('marks archived and template repositories and can hide the description', async () => {
    expect(textsOf((await bed().app()('/repo?repo=ada/notes&showDescription=false')).body)).toEqual([
      'ada/notes',
      'Archived',
      'Python',
      '30',
      '0',
    ]);
    expect(textsOf((await bed().app()('/repo?repo=ada/template-kit')).body)).toContain('Template');
  });

  it('validates owner/name', async () => {
    expect((await bed().app()('/repo?repo=ada')).status).toBe(400);
    expect((await bed().app()('/repo?repo=ada/engine/x')).status).toBe(400);
    expect((await bed().app()('/repo?repo=ada/..')).status).toBe(400);
  });
});

describe('/stars', () => {
  it('draws the curve and the metrics of a complete history', async () => {
    const response = await bed().app()('/stars?repo=ada/engine');
    expectRenderableSvg(response.body);
    // 120 stars; 20 given since 1 March 2024 (now is 15 March): +20 on the 100 held a month ago.
    expect(textsOf(response.body)).toEqual(
      expect.arrayContaining(['★ ada/engine', '120', '+20', '+20.0%', 'Jun 2023', 'Mar 2024']),
    );
  });

  it('samples a large repository and ends at its total', async () => {
    const response = await bed().app()('/stars?repo=grace/galaxy');
    const texts = textsOf(response.body);
    expect(texts).toEqual(expect.arrayContaining(['2,500', '+0', '+0.0%', 'Jan 2020', 'Mar 2024']));
    expect(bed().fake.count('/repos/grace/galaxy/stargazers')).toBe(16);
  });
});
