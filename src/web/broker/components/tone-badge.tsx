import { Badge, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A light badge whose words read 4.5:1 on its tint (WCAG 1.4.3): Mantine's shade 9 does for
 * most palettes, but cedar's is 4.36:1 on its tint, so cedar's words are a shade darker.
 */
/** Cedar's words on its own tint: a shade darker than Mantine's cedar.9, which reads 4.36:1 there. */
export const CEDAR_TEXT = '#05633a';

export function ToneBadge({ color, children, ...rest }: { color: MantineColor; children: ReactNode; 'data-status'?: string }) {
  return (
    <Badge variant="light" color={color} c={color === 'cedar' ? CEDAR_TEXT : undefined} radius="sm" tt="none" {...rest}>
      {children}
    </Badge>
  );
}
