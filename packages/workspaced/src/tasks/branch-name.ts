/**
 * @module The branch of a task's worktree: `agent/<task id>-<slug of the title>`. The id makes it
 * unique (two tasks with one title never share a branch); the slug only helps people read it.
 */

/** Longest slug kept after the id, as in the original (48). */
const maxSlugLength = 48;

export function titleSlug(title: string): string {
  let slug = '';
  let pendingDash = false;
  for (const char of title.normalize('NFKD').toLowerCase()) {
    const isWordChar = (char >= 'a' && char <= 'z') || (char >= '0' && char <= '9');
    if (isWordChar) {
      if (pendingDash && slug !== '') slug += '-';
      slug += char;
      pendingDash = false;
      if (slug.length >= maxSlugLength) break;
    } else if (char.charCodeAt(0) < 0x300 || char.charCodeAt(0) > 0x36f) {
      // Anything but a combining accent (dropped, so "é" becomes "e") separates words.
      pendingDash = true;
    }
  }
  return slug.slice(0, maxSlugLength).replace(/-$/, '') || 'task';
}

export function taskBranchName(taskId: number, title: string): string {
  return `agent/${taskId}-${titleSlug(title)}`;
}
