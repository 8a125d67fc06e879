/** Small display pieces: badges, cards, empty states, skeletons, and the one-line notices. */
import type { ReactNode } from 'react';
import { classes } from './button.js';
import type { Tone } from './toast.js';

/** A short state word with a colour that is never the only cue (the word says it). */
export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return <span className={`kit-badge kit-tone-${tone}`}>{children}</span>;
}

/** A titled panel of a dashboard. */
export function Card(props: {
  title: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  className?: string;
  children: ReactNode;
  labelledBy?: string;
}) {
  return (
    <section className={classes('kit-card', props.className)} aria-labelledby={props.labelledBy}>
      <header className="kit-card-head">
        <h2 id={props.labelledBy}>
          {props.icon && (
            <span className="kit-card-icon" aria-hidden="true">
              {props.icon}
            </span>
          )}
          {props.title}
        </h2>
        {props.action}
      </header>
      {props.children}
    </section>
  );
}

/** What an empty list means and what to do about it. */
export function EmptyState(props: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="kit-empty">
      {props.icon && (
        <span className="kit-empty-icon" aria-hidden="true">
          {props.icon}
        </span>
      )}
      <p className="kit-empty-title">{props.title}</p>
      {props.children && <div className="kit-empty-text">{props.children}</div>}
      {props.action}
    </div>
  );
}

/** Grey bars where content is loading (`aria-busy` on the region, a label for screen readers). */
export function Skeleton({ lines = 3, label = 'Loading' }: { lines?: number; label?: string }) {
  return (
    <div className="kit-skeleton" role="status" aria-label={label} aria-busy="true">
      {Array.from({ length: lines }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder bars have no identity
        <span key={index} className="kit-skeleton-line" />
      ))}
    </div>
  );
}

/** An error is an alert (read out at once), a result a polite status; nothing for an empty text. */
export function Notice({ tone, text }: { tone: 'error' | 'status'; text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p role={tone === 'error' ? 'alert' : 'status'} className={`kit-notice kit-notice-${tone}`}>
      {text}
    </p>
  );
}
