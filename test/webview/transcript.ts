// The Transcript panel's test build (esbuild.mjs: dist-test/transcript.js): the product's page,
// and a report of what it drew: its call sections, how many have their bodies built, and
// whether it says the try is live.
import '../../webview-ui/transcript-view';
import { reportDrawn } from './report-drawn';

reportDrawn(() => {
  const sections = [...document.querySelectorAll('section.call')];
  const live = document.querySelector<HTMLElement>('.live[role="status"]');
  if (sections.length === 0 || !live) return undefined;
  return { calls: sections.length, built: sections.filter((s) => s.classList.contains('built')).length, live: !live.hidden };
});
