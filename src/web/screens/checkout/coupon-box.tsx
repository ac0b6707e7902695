import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconTicket } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';

export interface CouponBoxProps {
  text: string;
  /** The applied coupon's code, or null. */
  applied: string | null;
  /** The server's message for the last refused coupon, shown in red (spec §8). */
  error: string | null;
  applying: boolean;
  onChange: (text: string) => void;
  onApply: () => void;
  onRemove: () => void;
}

/**
 * The coupon box (spec §4, §5): whitespace is stripped as typed; Apply asks the server; an applied
 * coupon reads "Coupon Applied" with Remove; a refused one shows the server's message under the box.
 */
export function CouponBox({ text, applied, error, applying, onChange, onApply, onRemove }: CouponBoxProps) {
  const { t } = useLingui();
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="coupon-box">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!applied) onApply();
        }}
        noValidate
      >
        <Stack gap="xs">
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <TextInput
              label={t`Coupon code`}
              value={text}
              onChange={(event) => onChange(event.currentTarget.value.replace(/\s+/g, ''))}
              leftSection={<IconTicket size={18} aria-hidden="true" />}
              readOnly={applied !== null}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              dir="ltr"
              error={error}
              style={{ flex: 1 }}
              size="md"
              data-testid="coupon-input"
            />
            {applied ? (
              <Button variant="default" size="md" onClick={onRemove} data-testid="coupon-remove">
                {t`Remove`}
              </Button>
            ) : (
              <Button type="submit" size="md" variant="light" loading={applying} disabled={text === ''} data-testid="coupon-apply">
                {t`Apply`}
              </Button>
            )}
          </Group>
          {applied && (
            <Group gap={6} c="green.8" role="status" data-testid="coupon-applied">
              <IconCircleCheck size={18} aria-hidden="true" />
              <Text fz="sm" fw={600}>
                {t`Coupon Applied`}
              </Text>
            </Group>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
