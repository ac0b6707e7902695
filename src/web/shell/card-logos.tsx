import { Group } from '@mantine/core';

/** Accepted payment cards, drawn as simple badges (no third-party image files to load). */
export function CardLogos({ label }: { label: string }) {
  return (
    <Group gap={8} role="list" aria-label={label}>
      <svg role="listitem" aria-label="Visa" width="52" height="34" viewBox="0 0 52 34">
        <rect width="52" height="34" rx="5" fill="#fff" />
        <text x="26" y="23" textAnchor="middle" fontFamily="Arial, sans-serif" fontWeight="900" fontStyle="italic" fontSize="15" fill="#1a1f71">
          VISA
        </text>
      </svg>
      <svg role="listitem" aria-label="Mastercard" width="52" height="34" viewBox="0 0 52 34">
        <rect width="52" height="34" rx="5" fill="#fff" />
        <circle cx="21" cy="17" r="10" fill="#eb001b" />
        <circle cx="31" cy="17" r="10" fill="#f79e1b" fillOpacity="0.9" />
      </svg>
      <svg role="listitem" aria-label="American Express" width="52" height="34" viewBox="0 0 52 34">
        <rect width="52" height="34" rx="5" fill="#2e77bc" />
        <text x="26" y="21" textAnchor="middle" fontFamily="Arial, sans-serif" fontWeight="800" fontSize="10" fill="#fff">
          AMEX
        </text>
      </svg>
    </Group>
  );
}
