import { useEffect, useRef, type RefObject } from 'react';
import { Loader, LoadingOverlay, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectPaying } from '../../../../machines/checkout/checkout.selectors';
import type { checkoutLogic } from './checkout.actors';

/**
 * The checkout loader (spec §4, §9): over the whole page while temp-checkout runs and for the
 * 2.5 s after it (the machine's `paying` tag), so nothing is pressed twice on the way to the
 * payments page. The message is announced through a live region that is always in the page;
 * keyboard focus waits on the loader (Tab stays there), and goes back to Proceed when the loader
 * hides with the customer still here (a refused payment).
 */
export function PaymentOverlay({
  step,
  returnFocusTo,
  free = false,
}: {
  step: ActorRefFrom<typeof checkoutLogic>;
  returnFocusTo: RefObject<HTMLElement | null>;
  /** A total of 0: no payment to prepare, the policy is issued at once (RULINGS 18). */
  free?: boolean;
}) {
  const { t } = useLingui();
  const paying = useSelector(step, selectPaying);
  const panel = useRef<HTMLDivElement>(null);
  const shown = useRef(false);
  const message = free ? t`Please wait while we issue your policy…` : t`Please wait while we prepare your secure payment…`;

  useEffect(() => {
    if (paying) {
      shown.current = true;
      panel.current?.focus({ preventScroll: true });
    } else if (shown.current) {
      shown.current = false;
      const active = document.activeElement;
      if (!active || active === document.body) returnFocusTo.current?.focus({ preventScroll: true });
    }
  }, [paying, returnFocusTo]);

  return (
    <>
      <VisuallyHidden role="status" data-testid="checkout-paying-status">
        {paying ? message : ''}
      </VisuallyHidden>
      <LoadingOverlay
        visible={paying}
        pos="fixed"
        zIndex={1000}
        overlayProps={{ blur: 2 }}
        data-testid="checkout-paying-overlay"
        loaderProps={{
          children: (
            <Paper
              ref={panel}
              tabIndex={-1}
              shadow="md"
              radius="lg"
              p="xl"
              maw={360}
              mx="md"
              style={{ outline: 'none' }}
              // The payment is under way: nothing under the loader takes focus meanwhile.
              onKeyDown={(event) => {
                if (event.key === 'Tab') event.preventDefault();
              }}
            >
              {/* Announced by the live region above; hidden here so it is not read twice. */}
              <Stack align="center" gap="sm" aria-hidden="true">
                <Loader />
                <Text ta="center">{message}</Text>
              </Stack>
            </Paper>
          ),
        }}
      />
    </>
  );
}
