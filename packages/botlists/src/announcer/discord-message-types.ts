/**
 * @module The execute-webhook body the announcer sends, typed locally (the package has no runtime
 * dependencies); the tests check these types against discord-api-types' `RESTPostAPIWebhookWithTokenJSONBody`.
 */

export type DiscordLinkButton = {
  type: 2;
  style: 5;
  label: string;
  url: string;
  emoji?: { name: string };
};

type DiscordTextDisplay = {
  type: 10;
  content: string;
};

export type DiscordThumbnail = {
  type: 11;
  media: { url: string };
  description?: string;
};

export type DiscordSection = {
  type: 9;
  components: DiscordTextDisplay[];
  accessory: DiscordThumbnail;
};

type DiscordSeparator = {
  type: 14;
  divider: boolean;
  spacing: 1 | 2;
};

type DiscordActionRow = {
  type: 1;
  components: DiscordLinkButton[];
};

export type DiscordContainer = {
  type: 17;
  components: (DiscordSection | DiscordSeparator | DiscordTextDisplay | DiscordActionRow)[];
  accent_color?: number;
};

export type DiscordEmbed = {
  title: string;
  description: string;
  thumbnail: { url: string };
  footer: { text: string };
  timestamp: string;
  color?: number;
};

export type DiscordWebhookMessage = {
  username?: string;
  avatar_url?: string;
  allowed_mentions: { parse: never[] };
  content?: string;
  embeds?: DiscordEmbed[];
  flags?: number;
  components?: DiscordContainer[];
};
