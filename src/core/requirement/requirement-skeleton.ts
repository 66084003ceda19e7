// The starting point a human Architect is given: one requirement with the four fields, each
// holding a hint of what goes there. A field still holding its hint was not written (a Submit
// pressed too early), which the validation says and the human step refuses.
const SKELETON_PLACEHOLDERS = {
  location: 'src/... : the module, class or function to change',
  description: 'What the code does now, and what is wrong with it.',
  contract: 'The behaviour it must have after the change.',
  acceptance: 'How to tell the change is done (which failing tests should pass).',
} as const;

export const REQUIREMENT_SKELETON = `<?xml version="1.0" encoding="UTF-8"?>
<requirements>
  <requirement id="1">
    <location>${SKELETON_PLACEHOLDERS.location}</location>
    <description>${SKELETON_PLACEHOLDERS.description}</description>
    <contract>${SKELETON_PLACEHOLDERS.contract}</contract>
    <acceptance>${SKELETON_PLACEHOLDERS.acceptance}</acceptance>
  </requirement>
</requirements>
`;

/** Whether a field's text is still the skeleton's hint for it (spacing aside). */
export function isPlaceholder(field: keyof typeof SKELETON_PLACEHOLDERS, text: string): boolean {
  return text.replace(/\s+/g, ' ').trim() === SKELETON_PLACEHOLDERS[field];
}
