/**
 * @module A loopback Discord: execute-webhook with components-v2 validation, scripted 429/404, and GET /users/@me.
 */
import { RecordingServer, type ScriptedReply } from './recording-server.js';

type Node = Record<string, unknown> & { type: number };

/** Checks a components-v2 tree the way Discord documents it; returns the problems found. */
export function validateComponentsV2(components: unknown): string[] {
  const problems: string[] = [];
  let total = 0;
  let text = 0;
  const visit = (node: Node, parent: number | null) => {
    total++;
    switch (node.type) {
      case 17: {
        if (parent !== null) problems.push('container must be top-level');
        for (const child of (node.components as Node[]) ?? []) visit(child, 17);
        break;
      }
      case 9: {
        const texts = (node.components as Node[]) ?? [];
        if (texts.length < 1 || texts.length > 3 || texts.some((t) => t.type !== 10))
          problems.push('section needs 1-3 text displays');
        const accessory = node.accessory as Node | undefined;
        if (!accessory || ![11, 2].includes(accessory.type))
          problems.push('section needs a thumbnail or button accessory');
        else if (accessory.type === 11 && typeof (accessory.media as { url?: unknown })?.url !== 'string')
          problems.push('thumbnail needs media.url');
        for (const t of texts) visit(t, 9);
        if (accessory) total++;
        // Alt text counts toward the message's text budget.
        if (accessory?.type === 11) text += String(accessory.description ?? '').length;
        break;
      }
      case 10:
        if (typeof node.content !== 'string' || node.content === '')
          problems.push('text display needs content');
        text += String(node.content ?? '').length;
        break;
      case 14:
        break;
      case 1: {
        const buttons = (node.components as Node[]) ?? [];
        if (buttons.length < 1 || buttons.length > 5) problems.push('action row holds 1-5 buttons');
        for (const b of buttons) {
          total++;
          if (b.type !== 2 || b.style !== 5 || typeof b.url !== 'string' || 'custom_id' in b)
            problems.push('only link buttons on webhooks');
          const label = String(b.label ?? '');
          if (label.length < 1 || label.length > 80) problems.push('button label must be 1-80 characters');
          text += label.length;
        }
        break;
      }
      default:
        problems.push(`unexpected component type ${node.type}`);
    }
  };
  if (!Array.isArray(components) || components.length === 0) return ['components missing'];
  for (const c of components as Node[]) visit(c, null);
  if (total > 40) problems.push('more than 40 components');
  if (text > 4000) problems.push('more than 4000 text characters');
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
