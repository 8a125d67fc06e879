/**
 * The file editor: CodeMirror 6 with line numbers, undo history, bracket matching, search and
 * replace (Ctrl/Cmd-F), the file's language highlighted once its package has loaded, and Save
 * (Ctrl/Cmd-S or the button) with an "unsaved changes" mark. CodeMirror draws only the lines in
 * view and parses in slices, so a file of megabytes opens and scrolls without freezing the page.
 * Colours come from the kit's CSS variables (`code-editor.css`, `syntax.css`), so the editor
 * follows the light or dark theme; CodeMirror's own base styles go into a `<style>` element with
 * the page's nonce. This module is loaded lazily: it is most of an editor's code.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, type Text } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { useEffect, useRef, useState } from 'react';
import { pageNonce } from '../style-nonce.js';
import { languageLoader, languageName } from './languages.js';
import { useLeaveGuard } from './leave-guard.js';
import './code-editor.css';
import './syntax.css';

interface CodeEditorProps {
  path: string;
  /** The file as read; the editor starts from it (a new value opens a new document). */
  content: string;
  /** Writes the text; resolves true once the daemon has it, false when it refused (shown by the caller). */
  onSave: (content: string) => Promise<boolean>;
  /** Told whenever the text starts or stops differing from the file on disk. */
  onDirtyChange?: (dirty: boolean) => void;
}

export default function CodeEditor({ path, content, onSave, onDirtyChange }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(undefined);
  /** The text the daemon holds: dirty means the document differs from it. */
  const saved = useRef<Text>(undefined);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const markDirty = (value: boolean) => {
    setDirty(value);
    onDirtyChange?.(value);
  };
  // The key binding is made once per document; it calls the newest save through this.
  const save = useRef<() => Promise<void>>(async () => {});
  save.current = async () => {
    const editor = view.current;
    if (!editor || saving) return;
    const text = editor.state.doc;
    setSaving(true);
    const ok = await onSave(text.toString());
    setSaving(false);
    if (!ok) return;
    saved.current = text;
    markDirty(!editor.state.doc.eq(text));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: one editor per opened document; the callbacks are read through refs
  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    const language = new Compartment();
    const state = EditorState.create({
      doc: content,
      extensions: [
        EditorView.cspNonce.of(pageNonce()),
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        search({ top: true }),
        // Token classes (`tok-keyword`...) coloured by syntax.css, not a generated theme.
        syntaxHighlighting(classHighlighter),
        language.of([]),
        keymap.of([
          {
            key: 'Mod-s',
            preventDefault: true,
            run: () => {
              void save.current();
              return true;
            },
          },
          ...searchKeymap,
          ...historyKeymap,
          ...defaultKeymap,
          indentWithTab,
        ]),
        EditorView.contentAttributes.of({ 'aria-label': path }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) markDirty(!update.state.doc.eq(saved.current ?? update.startState.doc));
        }),
      ],
    });
    saved.current = state.doc;
    const editor = new EditorView({ state, parent });
    view.current = editor;
    markDirty(false);
    let open = true;
    languageLoader(path)?.()
      .then((support) => {
        if (open) editor.dispatch({ effects: language.reconfigure(support) });
      })
      // A language that fails to load leaves the file editable as plain text.
      .catch(() => {});
    return () => {
      open = false;
      editor.destroy();
      view.current = undefined;
    };
  }, [path, content]);

  // Leaving the page, the project tab or the screen with unsaved text asks first.
  useLeaveGuard(dirty, `Discard the unsaved changes to ${path}?`);

  return (
    <section className="code-editor" aria-label={`Editor of ${path}`}>
      <header className="code-editor-bar">
        <span className="code-editor-path">{path}</span>
        <span className="muted">{languageName(path)}</span>
        <span className="code-editor-state" data-testid="editor-state">
          {saving ? 'Saving…' : dirty ? 'Unsaved changes' : 'Saved'}
        </span>
        <button type="button" onClick={() => void save.current()} disabled={saving}>
          Save
        </button>
      </header>
      <div className="code-editor-box" ref={host} />
      <p className="muted code-editor-help">
        Ctrl/Cmd-S saves, Ctrl/Cmd-F searches, Tab indents (Esc then Tab leaves).
      </p>
    </section>
  );
}
