// For host pages that embed embed.html in an <iframe>: sizes each frame to
// the height its view reports. Load it once on the host page:
//   <script type="module" src="assets/attention-playground/frame-resizer.js"></script>
window.addEventListener('message', (event) => {
  if (event.data?.type !== 'attention-playground:height') return;
  const height = Number(event.data.height);
  if (!Number.isFinite(height) || height <= 0 || height > 20000) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow === event.source) frame.height = String(Math.ceil(height));
  }
});
