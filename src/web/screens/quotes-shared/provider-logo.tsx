import { Box } from '@mantine/core';

/**
 * Insurer logos are drawn 160 × 64 (src/server/quoting/insurer-logos.ts). The width and height
 * attributes give the browser that ratio before the file arrives, so the logo's box has its width
 * from the first paint and nothing beside it moves when it loads (issue 19: layout shift).
 */
const LOGO_RATIO = 160 / 64;

/** An insurer's logo from the asset path of spec §7 (/img/{image}), named for screen readers. */
export function ProviderLogo({ image, name, height = 40 }: { image: string; name: string; height?: number }) {
  return (
    <Box
      component="img"
      src={`/img/${image}`}
      alt={name}
      width={Math.round(height * LOGO_RATIO)}
      height={height}
      h={height}
      // Width follows the logo's own proportions and it is never stretched by a flex column, so it
      // sits at the start edge in both directions.
      style={{ width: 'auto', maxWidth: 140, objectFit: 'contain', display: 'block', alignSelf: 'flex-start' }}
    />
  );
}
