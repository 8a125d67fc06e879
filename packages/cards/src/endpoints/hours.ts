/**
 * @module GET /hours: a 24-hour dial of commit times with the peak hour.
 */
import { colorOr } from '../cards/github-marks.js';
import { renderHours } from '../cards/hours.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { commitHours } from '../insights/commit-hours.js';
import { flag, text, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { colorParam, githubCardCache, timezoneParam, usernameParam } from './github-params.js';

export const hours = defineEndpoint({
  path: '/hours',
  summary: "A 24-hour radial dial of the user's commit times with the peak hour.",
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    title: text({ description: 'Card title.', max: 60, default: 'Commit hours' }),
    color: colorParam,
    theme: themeParam,
    hide_border: flag({ description: 'Draw no border.', default: false }),
    timezone: timezoneParam,
  },
  async render({ username, title, color, theme, hide_border, timezone }, { services }) {
    const times = await forCard(gitHubDataFor(services).commitTimes(username));
    const palette = getTheme(theme);
    return renderHours({
      title,
      hours: commitHours(times, timezone),
      timeZone: timezone,
      color: colorOr(color, palette.ring),
      hideBorder: hide_border,
      theme: palette,
    });
  },
});
