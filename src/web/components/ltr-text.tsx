import type { ReactNode } from 'react';

/**
 * A left-to-right run inside any text: a payment reference, a phone number. Isolated, so an
 * Arabic sentence around it neither reorders its parts nor flips its hyphens, and kept on one
 * line, so a reference never breaks at a hyphen into two runs that read in the wrong order.
 */
export function LtrText({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <bdi dir="ltr" style={{ whiteSpace: 'nowrap' }} data-testid={testId}>
      {children}
    </bdi>
  );
}
