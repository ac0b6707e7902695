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
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  other: { navy: '#0b1f3a', mobileBreakpointPx: 768 },
  components: {
    // Mantine 9 keeps every closed dropdown's options in the page (display: none): the travel
    // details form's selects alone made about a thousand hidden elements at its first render, the
    // largest part of its mount on a phone (issue 19). Options now render when a list opens.
    Combobox: { defaultProps: { keepMounted: false } },
  },
});

/**
 * Mantine's dimmed grey (#868e96) and error red (red.6) are about 3.3:1 on white, below WCAG
 * AA's 4.5:1 for text; gray.7 still reads as secondary and red.9 as an error, and both pass.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});
