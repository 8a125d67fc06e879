/**
 * Form fields with their label and an inline error: the error is linked to the control
 * (`aria-describedby`, id `<id>-error`) and marks it `aria-invalid`, so a screen reader reads it
 * with the field. Selects stay native `<select>`: the platform's picker is the accessible one on
 * phones and needs no popover.
 */
import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { classes } from './button.js';

interface FieldFrame {
  label: ReactNode;
  /** The message of a refused value, shown under the control. */
  error?: string | undefined;
  /** A hint under the control. */
  hint?: ReactNode;
}

export type TextFieldProps = FieldFrame & InputHTMLAttributes<HTMLInputElement>;
export type SelectFieldProps = FieldFrame &
  SelectHTMLAttributes<HTMLSelectElement> & { options: (string | { value: string; label: string })[] };

export function TextField({ label, error, hint, id, className, ...input }: TextFieldProps) {
  const ids = useFieldIds(id);
  return (
    <Frame ids={ids} label={label} error={error} hint={hint} className={className}>
      <input
        {...input}
        id={ids.control}
        className="kit-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(ids, error, hint)}
      />
    </Frame>
  );
}

export function SelectField({ label, error, hint, id, className, options, ...select }: SelectFieldProps) {
  const ids = useFieldIds(id);
  return (
    <Frame ids={ids} label={label} error={error} hint={hint} className={className}>
      <select
        {...select}
        id={ids.control}
        className="kit-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(ids, error, hint)}
      >
        {options.map((option) => {
          const { value, label: text } =
            typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </Frame>
  );
}

/** A checkbox with its label on the right. */
export function CheckboxField({
  label,
  className,
  ...input
}: { label: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className={classes('kit-check', className)}>
      <input {...input} type="checkbox" />
      {label}
    </label>
  );
}

interface FieldIds {
  control: string;
  error: string;
  hint: string;
}

function useFieldIds(id: string | undefined): FieldIds {
  const generated = useId();
  const control = id ?? generated;
  return { control, error: `${control}-error`, hint: `${control}-hint` };
}

function describedBy(ids: FieldIds, error: string | undefined, hint: ReactNode): string | undefined {
  return [error ? ids.error : '', hint ? ids.hint : ''].filter(Boolean).join(' ') || undefined;
}

function Frame(props: FieldFrame & { ids: FieldIds; className?: string | undefined; children: ReactNode }) {
  return (
    <div className={classes('kit-field', props.error && 'kit-field-invalid', props.className)}>
      <label htmlFor={props.ids.control}>{props.label}</label>
      {props.children}
      {props.hint && (
        <p id={props.ids.hint} className="kit-hint">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={props.ids.error} className="kit-field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
