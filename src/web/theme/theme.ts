import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Safar blue: a deep, trustworthy blue for actions; cedar green marks success and savings. */
const safar: MantineColorsTuple = [
  '#e8f1ff',
  '#d2e0fb',
  '#a4bff2',
  '#729cea',
  '#4a7ee3',
  '#316bdf',
  '#2361de',
  '#1551c6',
  '#0a47b2',
  '#003d9e',
];
const cedar: MantineColorsTuple = [
  '#e6fbf1',
  '#d5f2e4',
  '#ade3c8',
  '#81d3aa',
  '#5dc591',
  '#46bd81',
  '#38b978',
  '#29a266',
  '#1d9059',
  '#087d4a',
];

/**
 * The border of a field, an unchecked checkbox or radio and a segmented choice, as the CSS
 * variable --safar-control-border. WCAG 1.4.11 asks 3:1 against the page for what shows where a
 * control is; gray.6 is 3.32:1 on white (theme-contrast.test.ts computes it).
 */
export const CONTROL_BORDER = 'var(--mantine-color-gray-6)';

/** The classes the theme gives Mantine's controls, for controls.css. */
export const CONTROL_CLASSES = {
  input: 'safar-input',
  checkbox: 'safar-checkbox',
  checkboxIndicator: 'safar-checkbox-indicator',
  radio: 'safar-radio',
  radioIndicator: 'safar-radio-indicator',
} as const;

export const theme = createTheme({
  primaryColor: 'safar',
  primaryShade: { light: 8, dark: 5 },
  colors: { safar, cedar },
  fontFamily:
    "'Inter Variable', 'Noto Sans Arabic Variable', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  headings: {
    fontFamily: "'Inter Variable', 'Noto Sans Arabic Variable', system-ui, sans-serif",
    fontWeight: '700',
  },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Drawers, collapses and other transitions are instant for customers who ask for less motion (issue 21).
  respectReducedMotion: true,
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  other: { navy: '#0b1f3a', mobileBreakpointPx: 768 },
  components: {
    // Mantine 9 keeps every closed dropdown's options in the page (display: none): the travel
    // details form's selects alone made about a thousand hidden elements at its first render, the
    // largest part of its mount on a phone (issue 19). Options now render when a list opens.
    Combobox: { defaultProps: { keepMounted: false } },
    // The outlines that show where a field or a box is: controls.css draws them in
    // CONTROL_BORDER, which Mantine's own light grey (1.49:1 on white) was not (issue 21).
    Input: { classNames: { wrapper: CONTROL_CLASSES.input } },
    Checkbox: { classNames: { input: CONTROL_CLASSES.checkbox } },
    CheckboxIndicator: { classNames: { indicator: CONTROL_CLASSES.checkboxIndicator } },
    Radio: { classNames: { radio: CONTROL_CLASSES.radio } },
    RadioIndicator: { classNames: { indicator: CONTROL_CLASSES.radioIndicator } },
  },
});

/**
 * Mantine's dimmed grey (#868e96) and error red (red.6) are about 3.3:1 on white, below WCAG
 * AA's 4.5:1 for text; gray.7 still reads as secondary and red.9 as an error, and both pass.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: { '--safar-control-border': CONTROL_BORDER },
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});
