/**
 * @module Byte shares of the most used languages. Shares are of all bytes, so a user with many
 * languages sees honest numbers and the rest shown as "other".
 */

interface LanguageBytes {
  name: string;
  color: string;
  bytes: number;
}

interface LanguageShare extends LanguageBytes {
  /** Percent of all bytes, 0-100. */
  percent: number;
}

export interface LanguageShares {
  top: LanguageShare[];
  /** Percent of the bytes in languages not shown. */
  otherPercent: number;
  totalBytes: number;
}

export function languageShares(languages: readonly LanguageBytes[], count: number): LanguageShares {
  const sorted = [...languages].filter((language) => language.bytes > 0).sort((a, b) => b.bytes - a.bytes);
  const totalBytes = sorted.reduce((sum, language) => sum + language.bytes, 0);
  if (totalBytes === 0) return { top: [], otherPercent: 0, totalBytes: 0 };
  const top = sorted
    .slice(0, count)
    .map((language) => ({ ...language, percent: (language.bytes / totalBytes) * 100 }));
  const shown = top.reduce((sum, language) => sum + language.percent, 0);
  return { top, otherPercent: Math.max(0, 100 - shown), totalBytes };
}
