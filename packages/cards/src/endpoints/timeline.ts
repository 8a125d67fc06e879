/**
 * @module GET /timeline: the latest push, pull request and issue events.
 */
import { renderTimeline } from '../cards/timeline.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { relativeTime } from '../insights/durations.js';
import { number, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';
import { timelineCardCache, usernameParam } from './github-params.js';

export const timeline = defineEndpoint({
  path: '/timeline',
  summary: 'The most recent push, pull request and issue events, newest first.',
  cache: timelineCardCache,
  pure: false,
  params: {
    username: usernameParam,
    limit: number({ description: 'Events shown.', min: 1, max: 8, default: 5 }),
    theme: themeParam,
  },
  async render({ username, limit, theme }, { services }) {
    const events = await forCard(gitHubDataFor(services).timeline(username));
    const now = services.now().getTime();
    return renderTimeline({
      login: username,
      events: events.slice(0, limit).map((event) => ({ ...event, when: relativeTime(event.at, now) })),
      theme: getTheme(theme),
    });
  },
});
