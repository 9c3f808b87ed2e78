/**
 * A plain textarea for a JSON document, in a monospace font with line numbers beside it (the
 * gutter scrolls with the text). No editor library: the rules document is short (at most 200
 * rules), and a textarea keeps the browser's own keyboard, selection and screen-reader support.
 */
import { Box } from '@mantine/core';
import { useRef } from 'react';

export function CodeEditor({
  label,
  value,
  onChange,
  readOnly = false,
  rows = 24,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
  rows?: number;
}) {
  const gutter = useRef<HTMLPreElement>(null);
  const lines = value.split('\n').length;
  return (
    <Box className="code-editor">
      <pre className="code-editor-gutter" ref={gutter} aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => i + 1).join('\n')}
      </pre>
      <textarea
        className="code-editor-text"
        aria-label={label}
        value={value}
        rows={rows}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        wrap="off"
        readOnly={readOnly}
        onChange={(e) => onChange(e.currentTarget.value)}
        onScroll={(e) => {
          if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
        }}
      />
    </Box>
  );
}
