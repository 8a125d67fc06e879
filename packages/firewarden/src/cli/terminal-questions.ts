/**
 * @module Questions asked on a terminal, one line each. Lines are read through one iterator for
 * the whole command, so answers typed (or pasted) ahead of their question are kept in order.
 */
import { createInterface } from 'node:readline/promises';

export interface TerminalQuestions {
  /** The answer line, or null at the end of input. */
  ask(question: string): Promise<string | null>;
  close(): void;
}

export function terminalQuestions(): TerminalQuestions {
  const lines = createInterface({ input: process.stdin, output: process.stdout });
  const answers = lines[Symbol.asyncIterator]();
  return {
    async ask(question) {
      process.stdout.write(question);
      const reply = await answers.next();
      return reply.done ? null : String(reply.value).trim();
    },
    close: () => lines.close(),
  };
}

export const saidYes = (answer: string | null) => answer !== null && /^y(es)?$/i.test(answer);
export const saidNo = (answer: string | null) => answer !== null && /^no?$/i.test(answer);
