/**
 * @module A loopback Discord: execute-webhook with components-v2 validation (@discordjs/builders), scripted 429/404, and GET /users/@me.
 */
import {
  ActionRowBuilder,
  ButtonBuilder,
  ContainerBuilder,
  SectionBuilder,
  SeparatorBuilder,
  TextDisplayBuilder,
  ThumbnailBuilder,
} from '@discordjs/builders';
import { ButtonStyle, type SeparatorSpacingSize } from 'discord-api-types/v10';
import { RecordingServer, type ScriptedReply } from './recording-server.js';

type Node = Record<string, unknown> & { type: number };

/** Discord's limits on a whole components-v2 message, which the builders leave to Discord. */
const MAX_COMPONENTS = 40;
const MAX_TEXT = 4000;

/** Every component of a message, nested ones and section accessories included. */
function eachComponent(components: readonly Node[], visit: (node: Node) => void): void {
  for (const node of components) {
    visit(node);
    if (Array.isArray(node.components)) eachComponent(node.components as Node[], visit);
    if (node.accessory) eachComponent([node.accessory as Node], visit);
  }
}

/** Every character of text a components-v2 message shows: text displays, button labels, alt text. */
export function componentsText(components: readonly Node[]): number {
  let total = 0;
  eachComponent(components, (node) => {
    if (node.type === 10) total += String(node.content ?? '').length;
    if (node.type === 2) total += String(node.label ?? '').length;
    if (node.type === 11) total += String(node.description ?? '').length;
  });
  return total;
}

/**
 * One component rebuilt through @discordjs/builders' setters, which run discord.js's validators
 * (text 1-4000, labels 1-80, button and media URLs, alt text 1-1024, accent colour, 1-3 text
 * displays and an accessory per section); throws what they refuse. What they leave to Discord is
 * checked here: a container only at the top, 1-5 buttons per row, only link buttons on a webhook.
 */
function rebuild(node: Node, inContainer: boolean): unknown {
  const children = (node.components as Node[] | undefined) ?? [];
  switch (node.type) {
    case 17: {
      if (inContainer) throw new Error('container must be top-level');
      const container = new ContainerBuilder({ components: children.map((c) => rebuild(c, true)) as never });
      if (node.accent_color != null) container.setAccentColor(node.accent_color as number);
      return container.toJSON();
    }
    case 9:
      return new SectionBuilder({
        components: children.map((c) => rebuild(c, true)) as never,
        accessory: node.accessory ? (rebuild(node.accessory as Node, true) as never) : undefined,
      }).toJSON();
    case 10:
      return new TextDisplayBuilder().setContent(node.content as string).toJSON();
    case 11: {
      const thumbnail = new ThumbnailBuilder().setURL(
        (node.media as { url?: string } | undefined)?.url as string,
      );
      if (node.description !== undefined) thumbnail.setDescription(node.description as string);
      return thumbnail.toJSON();
    }
    case 14:
      return new SeparatorBuilder()
        .setDivider(node.divider as boolean)
        .setSpacing(node.spacing as SeparatorSpacingSize)
        .toJSON();
    case 1:
      if (children.length < 1 || children.length > 5) throw new Error('action row holds 1-5 buttons');
      return new ActionRowBuilder({ components: children.map((c) => rebuild(c, true)) as never }).toJSON();
    case 2: {
      if (node.style !== ButtonStyle.Link || 'custom_id' in node)
        throw new Error('only link buttons on webhooks');
      const button = new ButtonBuilder()
        .setStyle(ButtonStyle.Link)
        .setLabel(node.label as string)
        .setURL(node.url as string);
      if (node.emoji) button.setEmoji(node.emoji as { name: string });
      return button.toJSON();
    }
    default:
      throw new Error(`unexpected component type ${node.type}`);
  }
}

/** Checks a components-v2 message the way Discord does; returns the problems found. */
export function validateComponentsV2(components: unknown): string[] {
  if (!Array.isArray(components) || components.length === 0) return ['components missing'];
  const problems: string[] = [];
  for (const component of components as Node[]) {
    try {
      rebuild(component, false);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  let count = 0;
  eachComponent(components as Node[], () => count++);
  if (count > MAX_COMPONENTS) problems.push(`more than ${MAX_COMPONENTS} components`);
  if (componentsText(components as Node[]) > MAX_TEXT) problems.push(`more than ${MAX_TEXT} text characters`);
  return problems;
}

export function createFakeDiscord() {
  const hits = new Map<string, number>();
  return new RecordingServer((req): ScriptedReply => {
    const url = new URL(req.url, 'http://x');
    if (req.method === 'GET' && url.pathname === '/api/v10/users/@me') {
      if (req.headers.authorization === 'Bot clyde-token')
        return { status: 200, body: '{"id":"777000000000000002","username":"Clyde Helper","avatar":null}' };
      if (req.headers.authorization !== 'Bot bot-token')
        return { status: 401, body: '{"message":"401: Unauthorized","code":0}' };
      return {
        status: 200,
        body: '{"id":"777000000000000001","username":"VoteBot","global_name":null,"avatar":"a1b2"}',
      };
    }
    const match = url.pathname.match(/^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([\w-]+)$/);
    if (req.method !== 'POST' || !match)
      return { status: 404, body: '{"message":"404: Not Found","code":0}' };
    const token = match[2]!;
    const count = (hits.get(token) ?? 0) + 1;
    hits.set(token, count);
    if (token === 'gone') return { status: 404, body: '{"message":"Unknown Webhook","code":10015}' };
    if (token === 'busy' && count === 1) {
      return {
        status: 429,
        headers: { 'retry-after': '1' },
        body: '{"message":"You are being rate limited.","retry_after":0.25,"global":false}',
      };
    }
    if (token === 'blocked')
      return {
        status: 429,
        body: '{"message":"You are being rate limited.","retry_after":60,"global":false}',
      };
    const body = JSON.parse(req.body) as Record<string, unknown>;
    // Discord refuses webhook names containing these words (code 50035).
    if (typeof body.username === 'string' && /discord|clyde/i.test(body.username))
      return { status: 400, body: '{"message":"Invalid Form Body","code":50035}' };
    const flags = Number(body.flags ?? 0);
    if (flags & (1 << 15)) {
      if (url.searchParams.get('with_components') !== 'true')
        return { status: 400, body: '{"message":"components ignored without with_components"}' };
      if ('content' in body || 'embeds' in body)
        return { status: 400, body: '{"message":"content/embeds not allowed with IS_COMPONENTS_V2"}' };
      const problems = validateComponentsV2(body.components);
      if (problems.length)
        return { status: 400, body: JSON.stringify({ message: 'Invalid Form Body', problems }) };
    } else if (!body.content && !body.embeds) {
      return { status: 400, body: '{"message":"Cannot send an empty message","code":50006}' };
    }
    return { status: 204 };
  });
}
