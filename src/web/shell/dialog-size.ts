import { useMediaQuery } from '@mantine/hooks';

/** The spec's mobile breakpoint (§2 wizard header, dialogs): below 768 px is a phone. */
export const MOBILE_MAX_WIDTH_QUERY = '(max-width: 767px)';

/**
 * The spec §2 dialog widths: "narrow" dialogs (system error, date-of-birth error) are 40 % of
 * the screen, every other dialog 650 px; on phones all are 90 %.
 */
export type DialogWidth = 'narrow' | 'standard';

/** Pure: the Modal `size` for a dialog, in viewport units so the rendered box is the spec's share of the screen. */
export function dialogSize(width: DialogWidth, mobile: boolean): string {
  if (mobile) return '90vw';
  return width === 'narrow' ? '40vw' : '650px';
}

/**
 * The `size` to give a Mantine Modal. A percentage would be of Mantine's inner box, which is
 * padded by 5vw on each side: "40%" rendered 36 % of the screen and "90%" 81 % (issue 8 row 8).
 * Viewport units measure the screen itself; the padded box (90vw) still holds a 90vw dialog.
 */
export function useDialogSize(width: DialogWidth): string {
  return dialogSize(width, useMediaQuery(MOBILE_MAX_WIDTH_QUERY) ?? false);
}
