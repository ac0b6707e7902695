import { Group, Text } from '@mantine/core';
import classes from './shell.module.css';

/** The Safar mark: a paper plane over a horizon, and the name in Latin and Arabic script. */
export function LogoMark({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <rect width="48" height="48" rx="12" fill="#0a47b2" />
      <path d="M10 33c8-4 20-4 28 0" stroke="#81d3aa" strokeWidth="3" fill="none" strokeLinecap="round" />
      <path d="M12 24 37 13l-7 20-6-7-6 4 1-6z" fill="#fff" />
      <path d="M24 26 37 13" stroke="#0a47b2" strokeWidth="1.5" />
    </svg>
  );
}

export function Logo({ label }: { label: string }) {
  return (
    <Group gap={10} wrap="nowrap" aria-label={label} role="img" miw={0}>
      <LogoMark />
      <div className={classes.logoNameBox}>
        <Text fw={800} lh={1} c="#0b1f3a" className={classes.logoName} aria-hidden="true">
          Safar <span style={{ fontWeight: 700, color: '#1551c6' }}>سفر</span>
        </Text>
      </div>
    </Group>
  );
}
