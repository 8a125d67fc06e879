/**
 * @module Chat messages for a vote: template rendering and the text, embed and components-v2 (`embed-v2`) payloads.
 */
import type { UniversalVote, UniversalVoteInput } from '../types.js';
import { listNameOf } from './complete-vote.js';

export type AnnounceFormat = 'text' | 'embed' | 'embed-v2';

export interface AnnounceLink {
  label: string;
  url: string;
  emoji?: string;
}

export interface MessageContext {
  botName: string;
  botId: string;
  format: AnnounceFormat;
  template: string;
  color: number | undefined;
  links: readonly AnnounceLink[];
  username: string | undefined;
  avatarUrl: string | undefined;
}

export const DEFAULT_TEMPLATE = '**{voter}** voted for **{bot}** on **{list}**! (+{weight})';
/** IS_COMPONENTS_V2 message flag (https://discord.com/developers/docs/resources/message#message-object-message-flags). */
export const COMPONENTS_V2_FLAG = 1 << 15;
/** Component type numbers (https://discord.com/developers/docs/components/reference). */
export const ComponentType = {
  ActionRow: 1,
  Button: 2,
  Section: 9,
  TextDisplay: 10,
  Thumbnail: 11,
  Separator: 14,
  Container: 17,
} as const;
const LINK_BUTTON_STYLE = 5;
export const MAX_LINK_BUTTONS = 5;
/** Discord limits: content 2000, embed description 4096, text displays 4000 in total, username 80. */
const MAX_CONTENT = 2000;
const MAX_EMBED_DESCRIPTION = 4096;
const MAX_TEXT_DISPLAY_TOTAL = 4000;
const MAX_USERNAME = 80;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Default avatar of a user without one (https://discord.com/developers/docs/reference#image-formatting-cdn-endpoints). */
export function defaultAvatar(userId: string): string {
  const index = /^\d+$/.test(userId) ? Number((BigInt(userId) >> 22n) % 6n) : 0;
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`;
}

/** Replaces `{voter} {voterId} {list} {listId} {bot} {botId} {weight} {weekend}`; unknown placeholders stay. */
export function renderTemplate(
  template: string,
  vote: UniversalVoteInput,
  ctx: Pick<MessageContext, 'botName' | 'botId'>,
): string {
  const values: Record<string, string> = {
    voter: vote.voterName ?? `<@${vote.voterId}>`,
    voterId: vote.voterId,
    list: listNameOf(vote),
    listId: vote.listId,
    bot: ctx.botName,
    botId: vote.botId ?? ctx.botId,
    weight: String(vote.weight),
    weekend: vote.weekend ? 'yes' : 'no',
  };
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function identity(ctx: MessageContext): Record<string, string> {
  const out: Record<string, string> = {};
  if (ctx.username) out.username = clip(ctx.username, MAX_USERNAME);
  if (ctx.avatarUrl) out.avatar_url = ctx.avatarUrl;
  return out;
}

/** Builds the execute-webhook body. Mentions never ping (`allowed_mentions.parse` empty). */
export function buildDiscordMessage(vote: UniversalVote, ctx: MessageContext): Record<string, unknown> {
  const text = renderTemplate(ctx.template, vote, ctx);
  const avatar = vote.voterAvatar ?? defaultAvatar(vote.voterId);
  const base = { ...identity(ctx), allowed_mentions: { parse: [] } };
  if (ctx.format === 'text') return { ...base, content: clip(text, MAX_CONTENT) };
  if (ctx.format === 'embed') {
    const embed: Record<string, unknown> = {
      title: 'New vote',
      description: clip(text, MAX_EMBED_DESCRIPTION),
      thumbnail: { url: avatar },
      footer: { text: vote.weekend ? `${vote.listName} · weekend vote` : vote.listName },
      timestamp: new Date(vote.receivedAt).toISOString(),
    };
    if (ctx.color !== undefined) embed.color = ctx.color;
    return { ...base, embeds: [embed] };
  }
  return { ...base, flags: COMPONENTS_V2_FLAG, components: [componentsV2Card(vote, text, avatar, ctx)] };
}

/**
 * Container → [Section{Text Display, accessory Thumbnail}, Separator, Text Display, Action Row of ≤5 link buttons].
 * A Section must hold 1–3 text displays and an accessory; the container carries the accent colour.
 */
function componentsV2Card(
  vote: UniversalVote,
  text: string,
  avatar: string,
  ctx: MessageContext,
): Record<string, unknown> {
  const footer = `-# ${vote.listName}${vote.weekend ? ' · weekend vote' : ''} · <t:${Math.floor(vote.receivedAt / 1000)}:R>`;
  const body = clip(text, MAX_TEXT_DISPLAY_TOTAL - footer.length);
  const children: Record<string, unknown>[] = [
    {
      type: ComponentType.Section,
      components: [{ type: ComponentType.TextDisplay, content: body }],
      accessory: {
        type: ComponentType.Thumbnail,
        media: { url: avatar },
        description: vote.voterName ?? vote.voterId,
      },
    },
    { type: ComponentType.Separator, divider: true, spacing: 1 },
    { type: ComponentType.TextDisplay, content: footer },
  ];
  if (ctx.links.length > 0) {
    children.push({
      type: ComponentType.ActionRow,
      components: ctx.links.slice(0, MAX_LINK_BUTTONS).map((link) => {
        const button: Record<string, unknown> = {
          type: ComponentType.Button,
          style: LINK_BUTTON_STYLE,
          label: link.label,
          url: link.url,
        };
        if (link.emoji) button.emoji = { name: link.emoji };
        return button;
      }),
    });
  }
  const container: Record<string, unknown> = { type: ComponentType.Container, components: children };
  if (ctx.color !== undefined) container.accent_color = ctx.color;
  return container;
}
