import { Code } from '@mantine/core';

/** A value as compact JSON in <code>, left to right in either language. */
export function JsonCode({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <>—</>;
  return (
    <Code className="console-json console-ltr" dir="ltr">
      {JSON.stringify(value)}
    </Code>
  );
}
