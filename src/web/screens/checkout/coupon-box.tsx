import { useEffect, useRef } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconTicket } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { focusableWhileBusy } from '../../components/focusable-while-busy';

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
 * coupon reads "Coupon applied" with Remove; a refused one shows the server's message under the box.
 * Apply keeps the focus while the server checks the code; as Apply and Remove replace each other,
 * the focus follows the customer's press to what comes next (WCAG 2.4.3, issue 21): Remove once
 * the coupon is applied, the box once it is removed.
 */
export function CouponBox({ text, applied, error, applying, onChange, onApply, onRemove }: CouponBoxProps) {
  const { t } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const remove = useRef<HTMLButtonElement>(null);
  // Which of the box's buttons the customer pressed, until its answer is in: only a press moves
  // the focus, not a coupon applied again on load.
  const pressed = useRef<'apply' | 'remove' | null>(null);
  useEffect(() => {
    if (applying || !pressed.current) return;
    const press = pressed.current;
    pressed.current = null;
    // The pressed button is gone; the focus moves only if it went with it or is still in the box.
    const active = document.activeElement;
    if (active && active !== document.body && !box.current?.contains(active)) return;
    if (press === 'apply' && applied) remove.current?.focus();
    if (press === 'remove' && !applied) input.current?.focus();
  }, [applying, applied]);

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="coupon-box" ref={box}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (applied || applying) return;
          pressed.current = 'apply';
          onApply();
        }}
        noValidate
      >
        <Stack gap="xs">
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <TextInput
              ref={input}
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
            {/* Keyed: two buttons, not one relabelled, so the focus moves on purpose (above). */}
            {applied ? (
              <Button
                key="remove"
                ref={remove}
                variant="default"
                size="md"
                onClick={() => {
                  pressed.current = 'remove';
                  onRemove();
                }}
                data-testid="coupon-remove"
              >
                {t`Remove`}
              </Button>
            ) : (
              <Button
                key="apply"
                type="submit"
                size="md"
                variant="light"
                loading={applying}
                renderRoot={focusableWhileBusy(applying)}
                disabled={text === ''}
                data-testid="coupon-apply"
              >
                {t`Apply`}
              </Button>
            )}
          </Group>
          {/* Not a live region: the checkout's announcement says it, with the new total. */}
          {applied && (
            <Group gap={6} c="green.8" data-testid="coupon-applied">
              <IconCircleCheck size={18} aria-hidden="true" />
              <Text fz="sm" fw={600}>
                {t`Coupon applied`}
              </Text>
            </Group>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
