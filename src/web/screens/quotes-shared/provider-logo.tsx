import { Box } from '@mantine/core';

/** An insurer's logo from the asset path of spec §7 (/img/{image}), named for screen readers. */
export function ProviderLogo({ image, name, height = 40 }: { image: string; name: string; height?: number }) {
  return (
    <Box
      component="img"
      src={`/img/${image}`}
      alt={name}
      h={height}
      // Width follows the logo's own proportions and it is never stretched by a flex column, so it
      // sits at the start edge in both directions.
      style={{ width: 'auto', maxWidth: 140, objectFit: 'contain', display: 'block', alignSelf: 'flex-start' }}
    />
  );
}
