/**
 * A Mantine Button's `renderRoot` that keeps the button focusable while its action runs (WCAG
 * 2.4.3, issue 21). Mantine's `loading` disables the button, and a focused button that becomes
 * disabled drops the keyboard focus to <body>: Proceed at review and the coupon's Apply lost the
 * customer's place, and a dialog opened by the answer had nothing to give the focus back to.
 * While busy the button is aria-disabled instead, with Mantine's loader and look unchanged; its
 * owner ignores presses meanwhile. When not busy, `disabled` is the button's own.
 */
export function focusableWhileBusy(busy: boolean) {
  return ({ disabled, ...props }: Record<string, unknown>) => (
    <button {...props} disabled={busy ? false : Boolean(disabled)} aria-disabled={busy || undefined} />
  );
}
