/**
 * Light and dark themes: the system setting by default (pure CSS, `prefers-color-scheme`, so the
 * first paint is right without an inline script), or the choice made with the switch, kept in
 * `localStorage` and set as `data-theme` on `<html>`.
 */
import { Monitor, Moon, Sun } from 'lucide-react';
import { useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';

const storageKey = 'suite-theme';
const choices: { value: ThemeChoice; label: string; Icon: typeof Sun }[] = [
  { value: 'system', label: 'System theme', Icon: Monitor },
  { value: 'light', label: 'Light theme', Icon: Sun },
  { value: 'dark', label: 'Dark theme', Icon: Moon },
];

export function storedTheme(): ThemeChoice {
  try {
    const value = window.localStorage.getItem(storageKey);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

/** Sets the theme on `<html>` (call once before the first render, then on each change). */
export function applyTheme(choice: ThemeChoice = storedTheme()): void {
  if (choice === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.dataset.theme = choice;
  try {
    if (choice === 'system') window.localStorage.removeItem(storageKey);
    else window.localStorage.setItem(storageKey, choice);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

/** Three toggle buttons (system, light, dark); the pressed one is the theme in use. */
export function ThemeSwitch() {
  const [choice, setChoice] = useState(storedTheme);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form fieldset
    <div className="kit-theme-switch" role="group" aria-label="Theme">
      {choices.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          className="kit-icon-button"
          aria-label={label}
          title={label}
          aria-pressed={choice === value}
          onClick={() => {
            setChoice(value);
            applyTheme(value);
          }}
        >
          <Icon aria-hidden="true" size={16} />
        </button>
      ))}
    </div>
  );
}
