/**
 * @module What a grant was given for. An admin grants a capability after reading the manifest:
 * `dashboard.widget` for the widgets' sources it declares then, `events.read` for the metrics
 * that read events. An update that changes those sources (another loopback URL, another metric,
 * one more widget) changes what the grant lets the server read, so the grant ends and the admin
 * is asked again; an update that only changes a version, a title or a size keeps it.
 */
import { type Manifest, widgetCapabilities } from './manifest.js';

/** The data sources the capability lets the server read for this manifest, in a stable text form. */
function capabilityScope(manifest: Manifest, capability: string): string {
  const sources = manifest.widgets
    .filter((widget) => widgetCapabilities(widget).includes(capability))
    .map((widget) => JSON.stringify([widget.source, Object.entries(widget.query).sort()]));
  return JSON.stringify([...new Set(sources)].sort());
}

/** Which of the `granted` capabilities survive replacing `previous` by `next`. */
export function grantsAfterUpdate(
  previous: Manifest | null,
  next: Manifest,
  granted: readonly string[],
): { kept: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const capability of granted) {
    const stillMeant =
      next.capabilities.includes(capability) &&
      (previous === null || capabilityScope(previous, capability) === capabilityScope(next, capability));
    (stillMeant ? kept : dropped).push(capability);
  }
  return { kept, dropped };
}
