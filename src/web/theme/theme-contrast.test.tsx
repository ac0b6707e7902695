import { readFileSync } from 'node:fs';
import { Checkbox, DEFAULT_THEME, MantineProvider, MultiSelect, Radio, TextInput, defaultCssVariablesResolver, mergeMantineTheme } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import postcss from 'postcss';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_CLASSES, cssVariablesResolver, theme } from './theme';

/**
 * WCAG 1.4.11 (issue 21): what shows where a field, a checkbox, a radio or a segmented choice
 * is must stand 3:1 against the page. The colours are worked out from the theme as the browser
 * would: every CSS variable the theme and Mantine define, followed to a colour.
 */

afterEach(cleanup);

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const mantineVariables = defaultCssVariablesResolver(merged);
const themeVariables = cssVariablesResolver(merged);
const variables: Record<string, string> = { ...mantineVariables.variables, ...mantineVariables.light, ...themeVariables.variables, ...themeVariables.light };

/** A CSS colour value followed through var() to the colour it names. */
function resolve(value: string): string {
  const reference = /^var\((--[\w-]+)\)$/.exec(value.trim());
  if (!reference) return value.trim();
  const next = variables[reference[1]!];
  if (next === undefined) throw new Error(`${reference[1]} is not defined`);
  return resolve(next);
}

/** WCAG's contrast ratio of two colours written #rgb or #rrggbb. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const hex = colour.length === 4 ? `#${[...colour.slice(1)].map((digit) => digit + digit).join('')}` : colour;
    const [r, g, bl] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const page = resolve('var(--mantine-color-body)');

/** Each rule's selector and the colour of its border declarations, from a stylesheet of the app. */
function borders(file: string): { selector: string; colour: string }[] {
  const found: { selector: string; colour: string }[] = [];
  postcss.parse(readFileSync(new URL(file, import.meta.url), 'utf8')).walkDecls(/^(--input-bd|border-color|border)$/, (declaration) => {
    const value = declaration.prop === 'border' ? declaration.value.split(/\s+solid\s+/)[1]! : declaration.value;
    found.push({ selector: (declaration.parent as postcss.Rule).selector, colour: resolve(value) });
  });
  return found;
}

describe("the theme's control borders stand 3:1 against the page (WCAG 1.4.11, issue 21)", () => {
  it('the control border colour is at least 3:1 on the page (Mantine’s gray.4 was 1.49:1)', () => {
    expect(page).toMatch(/^#f{3}(f{3})?$/);
    expect(contrast(resolve('var(--safar-control-border)'), page)).toBeGreaterThanOrEqual(3);
    expect(contrast(resolve('var(--mantine-color-gray-4)'), page)).toBeLessThan(3);
  });

  it('every field, and every unchecked checkbox and radio, is drawn in a border of at least 3:1', () => {
    const rules = borders('./controls.css');
    const drawn = Object.values(CONTROL_CLASSES).filter((name) => rules.some((rule) => rule.selector.includes(`.${name}`)));
    expect(drawn).toEqual(Object.values(CONTROL_CLASSES));
    const unchecked = rules.find((rule) => rule.selector.includes(`.${CONTROL_CLASSES.checkbox}:not(:checked)`));
    expect(unchecked).toBeDefined();
    const tooFaint = rules.filter((rule) => contrast(rule.colour, page) < 3).map((rule) => `${rule.selector}: ${rule.colour}`);
    expect(tooFaint).toEqual([]);
  });

  it("the segmented choice's outline is at least 3:1", () => {
    const [outline] = borders('../components/segmented-choice.module.css');
    expect(outline).toBeDefined();
    expect(contrast(outline!.colour, page)).toBeGreaterThanOrEqual(3);
  });

  it("gives Mantine's fields, checkboxes and radios the classes those borders are drawn on", () => {
    render(
      <MantineProvider theme={theme} env="test">
        <TextInput label="Name" />
        <MultiSelect label="Countries" data={['France']} />
        <Checkbox label="Family" />
        <Radio label="One way" />
        <Checkbox.Indicator data-testid="checkbox-indicator" />
        <Radio.Indicator data-testid="radio-indicator" />
      </MantineProvider>,
    );
    expect(screen.getByLabelText('Name').closest(`.${CONTROL_CLASSES.input}`)).not.toBeNull();
    expect(screen.getByLabelText('Countries').closest(`.${CONTROL_CLASSES.input}`)).not.toBeNull();
    expect(screen.getByLabelText('Family').classList).toContain(CONTROL_CLASSES.checkbox);
    expect(screen.getByLabelText('One way').classList).toContain(CONTROL_CLASSES.radio);
    expect(screen.getByTestId('checkbox-indicator').classList).toContain(CONTROL_CLASSES.checkboxIndicator);
    expect(screen.getByTestId('radio-indicator').classList).toContain(CONTROL_CLASSES.radioIndicator);
  });
});
