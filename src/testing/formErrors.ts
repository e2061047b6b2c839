/**
 * The form controls a user sees marked invalid: text inputs, text areas and selects (MUI also
 * marks the wrapper and a select's hidden native input, which are not controls of their own).
 */
export function invalidControls(container: HTMLElement): Element[] {
  return [
    ...container.querySelectorAll(
      'input[aria-invalid="true"]:not([aria-hidden="true"]), textarea[aria-invalid="true"], [role="combobox"][aria-invalid="true"]',
    ),
  ];
}
