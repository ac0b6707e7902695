import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import type { MantineColor } from '@mantine/core';
import { labelOf } from '../i18n/console-labels';
import { ToneBadge } from './tone-badge';

/**
 * Colours that only back up the words: the badge always says its status in text. Each is a
 * palette whose light badge (shade 9 on its tint) reads 4.5:1 or better; Mantine's green,
 * yellow and orange do not, so paid is the theme's cedar and what waits is violet or pink.
 */
const TONES: Record<string, MantineColor> = {
  paid: 'cedar',
  sent: 'cedar',
  refunded: 'cedar',
  closed: 'gray',
  void: 'gray',
  pending: 'violet',
  requested: 'violet',
  new: 'blue',
  contacted: 'cyan',
  quoted: 'indigo',
  due: 'pink',
  refund: 'pink',
  failed: 'red',
  refused: 'red',
  open: 'pink',
  done: 'cedar',
  declined: 'gray',
};

export function StatusBadge({ status, labels }: { status: string; labels: Record<string, MessageDescriptor> }) {
  const { i18n } = useLingui();
  return (
    <ToneBadge color={TONES[status] ?? 'gray'} data-status={status}>
      {labelOf(i18n, labels, status)}
    </ToneBadge>
  );
}
