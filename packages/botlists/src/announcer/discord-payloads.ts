/**
 * @module Chat messages for a vote: template rendering and the text, embed and components-v2 (`embed-v2`) payloads.
 */
import type { UniversalVote, UniversalVoteInput } from '../types.js';
import { listNameOf } from './complete-vote.js';
import type {
  DiscordContainer,
  DiscordEmbed,
  DiscordLinkButton,
  DiscordThumbnail,
  DiscordWebhookMessage,
} from './discord-message-types.js';
import { escapeMarkdown } from './escape-markdown.js';
import { MAX_LINK_BUTTONS } from './link-buttons.js';
import { MAX_WEBHOOK_USERNAME } from './webhook-username.js';

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
const ComponentType = {
  ActionRow: 1,
  Button: 2,
  Section: 9,
  TextDisplay: 10,
  Thumbnail: 11,
  Separator: 14,
  Container: 17,
} as const;
const LINK_BUTTON_STYLE = 5;
/**
 * Discord limits: content 2000, embed description 4096, footer 2048, thumbnail description 1024,
 * and 4000 characters for all the text of a components-v2 message (text displays, button labels, alt text).
 */
const MAX_CONTENT = 2000;
const MAX_EMBED_DESCRIPTION = 4096;
const MAX_EMBED_FOOTER = 2048;
const MAX_COMPONENTS_TEXT_TOTAL = 4000;
const MAX_ALT_TEXT = 1024;
/** Keeps the footer line short so the vote text keeps most of the budget whatever the list name. */
const MAX_FOOTER_LIST_NAME = 100;
const DISCORD_ID = /^\d{1,20}$/;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Default avatar of a user without one (https://discord.com/developers/docs/reference#image-formatting-cdn-endpoints). */
function defaultAvatar(userId: string): string {
  const index = /^\d+$/.test(userId) ? Number((BigInt(userId) >> 22n) % 6n) : 0;
  return `https://cdn.discordapp.com/embed/avatars/${index}.png`;
}

/**
 * Replaces `{voter} {voterId} {list} {listId} {bot} {botId} {weight} {weekend}`; unknown placeholders stay.
 * Every value is escaped for Markdown (it comes from a vote, i.e. from a stranger); only the template's
 * own Markdown renders. A voter without a name becomes a mention of a valid Discord id.
 */
export function renderTemplate(
  template: string,
  vote: UniversalVoteInput,
  ctx: Pick<MessageContext, 'botName' | 'botId'>,
): string {
  const name = escapeMarkdown(vote.voterName ?? '');
  const values: Record<string, string> = {
    voter: name.trim()
      ? name
      : DISCORD_ID.test(vote.voterId)
        ? `<@${vote.voterId}>`
        : escapeMarkdown(vote.voterId),
    voterId: escapeMarkdown(vote.voterId),
    list: escapeMarkdown(listNameOf(vote)),
    listId: escapeMarkdown(vote.listId),
    bot: escapeMarkdown(ctx.botName),
    botId: escapeMarkdown(vote.botId ?? ctx.botId),
    weight: escapeMarkdown(String(vote.weight)),
    weekend: vote.weekend ? 'yes' : 'no',
  };
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.hasOwn(values, key) ? values[key] : whole,
  );
}

function identity(ctx: MessageContext): Pick<DiscordWebhookMessage, 'username' | 'avatar_url'> {
  const out: Pick<DiscordWebhookMessage, 'username' | 'avatar_url'> = {};
  if (ctx.username) out.username = clip(ctx.username, MAX_WEBHOOK_USERNAME);
  if (ctx.avatarUrl) out.avatar_url = ctx.avatarUrl;
  return out;
}

/** A voter avatar Discord can fetch (an http(s) URL), else the default avatar of the voter's id. */
function avatarOf(vote: UniversalVote): string {
  const url = vote.voterAvatar;
  if (url && /^https?:\/\/[^\s/]+\/\S*$/.test(url) && URL.canParse(url)) return url;
  return defaultAvatar(vote.voterId);
}

/** Builds the execute-webhook body. Mentions never ping (`allowed_mentions.parse` empty). */
export function buildDiscordMessage(vote: UniversalVote, ctx: MessageContext): DiscordWebhookMessage {
  const rendered = renderTemplate(ctx.template, vote, ctx);
  // Discord refuses a blank message: a template whose values all came out empty falls back to the default.
  const text = rendered.trim() ? rendered : renderTemplate(DEFAULT_TEMPLATE, vote, ctx);
  const avatar = avatarOf(vote);
  const base = { ...identity(ctx), allowed_mentions: { parse: [] } };
  if (ctx.format === 'text') return { ...base, content: clip(text, MAX_CONTENT) };
  if (ctx.format === 'embed') {
    const embed: DiscordEmbed = {
      title: 'New vote',
      description: clip(text, MAX_EMBED_DESCRIPTION),
      thumbnail: { url: avatar },
      // Footers render no Markdown: the list name goes in as is.
      footer: {
        text: clip(vote.weekend ? `${vote.listName} · weekend vote` : vote.listName, MAX_EMBED_FOOTER),
      },
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
 * All the text (both text displays, button labels, the avatar's alt text) stays within 4000 characters:
 * the vote text gets what the other parts leave.
 */
function componentsV2Card(
  vote: UniversalVote,
  text: string,
  avatar: string,
  ctx: MessageContext,
): DiscordContainer {
  const listName = escapeMarkdown(clip(vote.listName, MAX_FOOTER_LIST_NAME));
  const footer = `-# ${listName}${vote.weekend ? ' · weekend vote' : ''} · <t:${Math.floor(vote.receivedAt / 1000)}:R>`;
  const altText = clip(
    escapeMarkdown(vote.voterName ?? '').trim() || escapeMarkdown(vote.voterId),
    MAX_ALT_TEXT,
  );
  const buttons: DiscordLinkButton[] = ctx.links.slice(0, MAX_LINK_BUTTONS).map((link) => {
    const button: DiscordLinkButton = {
      type: ComponentType.Button,
      style: LINK_BUTTON_STYLE,
      label: link.label,
      url: link.url,
    };
    if (link.emoji) button.emoji = { name: link.emoji };
    return button;
  });
  const labels = buttons.reduce((sum, button) => sum + button.label.length, 0);
  const body = clip(text, MAX_COMPONENTS_TEXT_TOTAL - footer.length - labels - altText.length);
  const thumbnail: DiscordThumbnail = { type: ComponentType.Thumbnail, media: { url: avatar } };
  if (altText.length > 0) thumbnail.description = altText;
  const children: DiscordContainer['components'] = [
    {
      type: ComponentType.Section,
      components: [{ type: ComponentType.TextDisplay, content: body }],
      accessory: thumbnail,
    },
    { type: ComponentType.Separator, divider: true, spacing: 1 },
    { type: ComponentType.TextDisplay, content: footer },
  ];
  if (buttons.length > 0) children.push({ type: ComponentType.ActionRow, components: buttons });
  const container: DiscordContainer = { type: ComponentType.Container, components: children };
  if (ctx.color !== undefined) container.accent_color = ctx.color;
  return container;
}
