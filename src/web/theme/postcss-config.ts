import presetMantine from 'postcss-preset-mantine';
import simpleVars from 'postcss-simple-vars';

/**
 * The PostCSS both builds run (vite.config.ts for the customer's app, vite.broker.config.ts for
 * the console): Mantine's preset and its breakpoints as variables, so both read one set.
 */
export const mantinePostcss = () => ({
  plugins: [
    presetMantine(),
    simpleVars({
      variables: {
        'mantine-breakpoint-xs': '36em',
        'mantine-breakpoint-sm': '48em',
        'mantine-breakpoint-md': '62em',
        'mantine-breakpoint-lg': '75em',
        'mantine-breakpoint-xl': '88em',
      },
    }),
  ],
});
