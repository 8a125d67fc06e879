/**
 * @module UniversalParser: every list's bot, vote and comment payloads into one shape.
 */
import { BotlistsError } from '../errors.js';
import { builtInLists } from '../registry/lists.generated.js';
import { requireList } from '../registry/resolve-list.js';
import type { BotlistRecord, UniversalBot, UniversalComment, UniversalVote } from '../types.js';
import {
  asBoolean,
  asId,
  asNumber,
  asString,
  asStringArray,
  getPath,
  isObject,
  pick,
  pickAs,
} from './field-paths.js';
import { unwrapVoteEnvelope } from './vote-envelope.js';

/** Field priority per UniversalBot field: the first present path wins. */
const BOT_FIELDS = {
  id: ['id', 'clientid', 'client_id', 'botId', 'bot_id', 'botid', 'userId'],
  name: ['username', 'name', 'botName', 'bot_name', 'tag'],
  avatar: ['avatarURL', 'avatar_url', 'avatarUrl', 'avatar', 'icon'],
  owners: ['owners', 'owner', 'ownerIds', 'owner_ids', 'ownerId', 'owner_id'],
  serverCount: [
    'server_count',
    'serverCount',
    'guildCount',
    'guild_count',
    'guilds',
    'servers',
    'count',
    'stats.server_count',
    'stats.serverCount',
    'stats.guildCount',
    'servers_count',
    'stats.servers_count',
  ],
  votes: ['points', 'votes', 'total_votes', 'totalVotes', 'upvotes', 'votes.total', 'stats.votes'],
  monthlyVotes: [
    'monthlyPoints',
    'monthly_points',
    'monthlyVotes',
    'monthly_votes',
    'votes.monthly',
    'stats.monthlyVotes',
  ],
  certified: ['certifiedBot', 'certified', 'isCertified', 'verified'],
  ratingAverage: ['ratings.average', 'rating.average', 'reviews.averageScore', 'averageRating', 'rating'],
  ratingCount: [
    'ratings.count',
    'rating.count',
    'reviews.count',
    'reviewCount',
    'review_count',
    'ratingCount',
  ],
  tags: ['tags', 'categories', 'info.tags'],
  description: [
    'shortdesc',
    'shortDescription',
    'short_description',
    'description',
    'desc',
    'descriptions.short',
  ],
  invite: ['invite', 'inviteURL', 'invite_url', 'links.invite'],
  prefix: ['prefix', 'info.prefix'],
  library: ['lib', 'library'],
  github: ['github', 'links.github'],
  supportServer: ['support', 'supportServer', 'support_server', 'links.support'],
} as const;

/** Wrappers lists put around the bot object. */
const BOT_WRAPPERS = ['bot', 'data', 'result'];
/** Wrappers around a list of bots. */
const LIST_WRAPPERS = ['results', 'bots', 'data', 'items'];

function resolve(list: string | BotlistRecord): BotlistRecord {
  return requireList(list, builtInLists);
}

function unwrapBot(payload: unknown): Record<string, unknown> {
  if (!isObject(payload)) throw new BotlistsError('bot payload is not an object');
  for (const key of BOT_WRAPPERS) {
    const inner = payload[key];
    if (isObject(inner) && pick(inner, BOT_FIELDS.id) !== undefined) return inner;
  }
  return payload;
}

/** Avatar hash → CDN URL (https://discord.com/developers/docs/reference#image-formatting). */
function avatarUrl(value: unknown, id: string): string | null {
  const text = asString(value);
  if (!text) return null;
  return /^https?:\/\//.test(text) ? text : `https://cdn.discordapp.com/avatars/${id}/${text}.png`;
}

/** top.gg sends the support server as an invite code. */
function supportUrl(value: unknown): string | null {
  const text = asString(value);
  if (!text) return null;
  return /^https?:\/\//.test(text) ? text : `https://discord.gg/${text}`;
}

/** Splits a top.gg v0 query string (`?a=1&b=2`) or copies an object's string values. */
function parseQuery(value: unknown): Record<string, string> {
  const query: Record<string, string> = {};
  if (typeof value === 'string') {
    for (const [k, v] of new URLSearchParams(value.replace(/^\?/, ''))) query[k] = v;
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) query[k] = String(v);
  }
  return query;
}

/** Dashboard test deliveries: a type containing "test", or a true `test` / `isTest` / `is_test` flag. */
export function detectTest(body: unknown, eventField: string | null = 'type'): boolean {
  if (!isObject(body)) return false;
  const type = asString(pick(body, [eventField, 'type', 'event']));
  if (type && /test/i.test(type)) return true;
  return [body.test, body.isTest, body.is_test].some((flag) => asBoolean(flag) === true);
}

const isWeekendDay = (time: number): boolean => {
  const day = new Date(time).getUTCDay();
  return day === 0 || day === 6;
};

/** Normalises listing and webhook payloads of any list. Every method is static and pure. */
export const UniversalParser = {
  parseBot(list: string | BotlistRecord, payload: unknown, fetchedAt = Date.now()): UniversalBot {
    const record = resolve(list);
    const bot = unwrapBot(payload);
    const id = asId(pick(bot, BOT_FIELDS.id)) ?? '';
    return {
      listId: record.id,
      listName: record.name,
      id,
      name: asString(pick(bot, BOT_FIELDS.name)) ?? '',
      avatar: avatarUrl(pick(bot, BOT_FIELDS.avatar), id),
      owners: asStringArray(pick(bot, BOT_FIELDS.owners)),
      serverCount: pickAs(bot, BOT_FIELDS.serverCount, asNumber),
      votes: pickAs(bot, BOT_FIELDS.votes, asNumber),
      monthlyVotes: pickAs(bot, BOT_FIELDS.monthlyVotes, asNumber),
      certified: pickAs(bot, BOT_FIELDS.certified, asBoolean),
      ratings: {
        average: pickAs(bot, BOT_FIELDS.ratingAverage, asNumber),
        count: pickAs(bot, BOT_FIELDS.ratingCount, asNumber),
      },
      tags: asStringArray(pick(bot, BOT_FIELDS.tags)),
      description: asString(pick(bot, BOT_FIELDS.description)),
      invite: asString(pick(bot, BOT_FIELDS.invite)),
      prefix: asString(pick(bot, BOT_FIELDS.prefix)),
      library: asString(pick(bot, BOT_FIELDS.library)),
      github: asString(pick(bot, BOT_FIELDS.github)),
      supportServer: supportUrl(pick(bot, BOT_FIELDS.supportServer)),
      raw: payload,
      fetchedAt,
    };
  },

  parseBots(list: string | BotlistRecord, payload: unknown, fetchedAt = Date.now()): UniversalBot[] {
    let items: unknown = payload;
    if (isObject(payload)) items = LIST_WRAPPERS.map((k) => payload[k]).find(Array.isArray) ?? [];
    if (!Array.isArray(items)) return [];
    return items.filter(isObject).map((item) => UniversalParser.parseBot(list, item, fetchedAt));
  },

  /** Total vote count from a bot payload, or null when the list does not expose one. */
  parseVotes(_list: string | BotlistRecord, payload: unknown): number | null {
    if (!isObject(payload)) return asNumber(payload);
    return pickAs(unwrapBot(payload), BOT_FIELDS.votes, asNumber);
  },

  /**
   * A vote webhook body (top.gg v0 and v1, the `{vote:{…}}` envelope and every list's own shape)
   * as a UniversalVote. `raw` keeps the untouched body.
   */
  parseVoteWebhook(
    list: string | BotlistRecord,
    body: unknown,
    isTest = false,
    receivedAt = Date.now(),
  ): UniversalVote {
    const record = resolve(list);
    const flat = unwrapVoteEnvelope(body);
    const voterId = asId(
      pick(flat, [
        'userId',
        record.webhook.voterField,
        'user_id',
        'user',
        'voter_id',
        'voterId',
        'voter',
        'id',
      ]),
    );
    if (!voterId) throw new BotlistsError(`vote from ${record.id} names no voter`, { listId: record.id });
    const explicitWeight = asNumber(getPath(flat, 'weight'));
    const flagged = pickAs(flat, ['isWeekend', 'is_weekend', 'weekend'], asBoolean);
    const weekend =
      flagged ??
      (explicitWeight !== null
        ? explicitWeight >= 2
        : record.weekendMultiplier === true && isWeekendDay(receivedAt));
    return {
      listId: record.id,
      listName: record.name,
      voterId,
      voterName: asString(
        pick(flat, ['username', 'voterName', 'user.username', 'user.name', 'user.global_name', 'name']),
      ),
      voterAvatar: avatarUrl(pick(flat, ['user.avatar_url', 'user.avatar', 'avatar', 'avatarURL']), voterId),
      botId: asId(pick(flat, ['botId', 'bot_id', 'bot', 'project.platform_id', 'bot.id'])),
      weight: explicitWeight ?? (weekend && record.weekendMultiplier ? 2 : 1),
      weekend,
      isTest: isTest || detectTest(flat, record.webhook.eventField),
      query: parseQuery(getPath(flat, 'query')),
      receivedAt,
      raw: body,
    };
  },

  /** A comment, review or rating body (DisQ's `review{rating, content}` and flat shapes). */
  parseCommentWebhook(
    list: string | BotlistRecord,
    body: unknown,
    kind: UniversalComment['kind'] = 'comment',
    receivedAt = Date.now(),
  ): UniversalComment {
    const record = resolve(list);
    const flat = unwrapVoteEnvelope(body);
    const rating = asNumber(
      pick(flat, ['review.rating', 'comment.rating', 'rating.value', 'rating', 'stars', 'score']),
    );
    return {
      listId: record.id,
      listName: record.name,
      kind,
      authorId: asId(
        pick(flat, [record.webhook.voterField, 'user', 'userId', 'user_id', 'author.id', 'author']),
      ),
      authorName: asString(
        pick(flat, ['user.username', 'user.name', 'username', 'author.username', 'author.name']),
      ),
      botId: asId(pick(flat, ['botId', 'bot_id', 'bot', 'bot.id', 'project.platform_id'])),
      rating: rating !== null && rating >= 1 && rating <= 5 ? rating : null,
      content:
        asString(
          pick(flat, [
            'review.content',
            'comment.content',
            'content',
            'text',
            'comment',
            'review',
            'message',
          ]),
        ) ?? '',
      receivedAt,
      raw: body,
    };
  },
};
