import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** A plain table (Mantine's) that scrolls sideways on a phone, its scroller reachable by keyboard. */
export function ScrollTable({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native" tabIndex={0}>
      {children}
    </Table.ScrollContainer>
  );
}
