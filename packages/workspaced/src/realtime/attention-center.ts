/**
 * @module The attention center: things that wait for a person (an agent asking for approval or
 * input, an agent or task that failed, a task that needs input). One open item per resource
 * (`agent:terminal:7`, `task:7`); a later state that no longer blocks resolves it by itself.
 * Every change is published as a critical event (`attention.created` / `attention.resolved`)
 * on the stream `project:<id>`, so a slow client never loses one. Kept in memory: items
 * describe live processes and current task states, which a restart re-derives.
 */
import type { EventBus } from './event-bus.js';

type AttentionKind =
  | 'agent.blocked'
  | 'agent.failed'
  | 'task.blocked'
  | 'task.failed'
  | 'workflow.approval'
  | 'workflow.failed';

interface AttentionItem {
  id: number;
  kind: AttentionKind;
  /** 1 (blocked: someone must answer) or 2 (failed). */
  priority: 1 | 2;
  project_id: number;
  resource: string;
  summary: string;
  created_at: string;
  resolved_at: string | null;
  /** A user id, or `auto` when the resource stopped blocking. */
  resolved_by: string | null;
}

interface RaiseAttention {
  kind: AttentionKind;
  projectId: number;
  resource: string;
  summary: string;
}

/** Resolved items kept for the list (newest), so a client sees what was just handled. */
const keepResolved = 200;

export class AttentionCenter {
  private readonly items = new Map<number, AttentionItem>();
  private readonly openByResource = new Map<string, AttentionItem>();
  private nextId = 1;

  constructor(private readonly events: EventBus) {}

  raise(input: RaiseAttention): AttentionItem {
    const current = this.openByResource.get(input.resource);
    if (current?.kind === input.kind) return current;
    if (current) this.resolveItem(current, 'auto');
    const item: AttentionItem = {
      id: this.nextId++,
      kind: input.kind,
      priority: input.kind.endsWith('.failed') ? 2 : 1,
      project_id: input.projectId,
      resource: input.resource,
      summary: input.summary,
      created_at: new Date().toISOString(),
      resolved_at: null,
      resolved_by: null,
    };
    this.items.set(item.id, item);
    this.openByResource.set(item.resource, item);
    this.events.publish(`project:${item.project_id}`, 'attention.created', { ...item }, true);
    return item;
  }

  /** The resource no longer blocks (the agent works again, the task moved on, a user approved). */
  clear(resource: string, by = 'auto'): void {
    const current = this.openByResource.get(resource);
    if (current) this.resolveItem(current, by);
  }

  get(id: number): AttentionItem | undefined {
    return this.items.get(id);
  }

  list(): AttentionItem[] {
    return [...this.items.values()].sort((a, b) => b.id - a.id);
  }

  resolve(item: AttentionItem, by: string): AttentionItem {
    if (item.resolved_at === null) this.resolveItem(item, by);
    return item;
  }

  private resolveItem(item: AttentionItem, by: string): void {
    item.resolved_at = new Date().toISOString();
    item.resolved_by = by;
    this.openByResource.delete(item.resource);
    this.events.publish(`project:${item.project_id}`, 'attention.resolved', { ...item }, true);
    const resolved = [...this.items.values()].filter((entry) => entry.resolved_at !== null);
    for (const old of resolved.slice(0, Math.max(0, resolved.length - keepResolved)))
      this.items.delete(old.id);
  }
}
