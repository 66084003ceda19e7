// A valid requirement.xml a scripted model answers an Architect with, when what it says does not
// matter to the test (the gateway's, the replay's, a budget's).
export const SAMPLE_REQUIREMENT = `<?xml version="1.0" encoding="UTF-8"?>
<requirements>
  <requirement id="1">
    <location>src</location>
    <description>What the target's tests expect.</description>
    <contract>The failing tests pass.</contract>
    <acceptance>pytest passes.</acceptance>
  </requirement>
</requirements>
`;
