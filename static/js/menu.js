// The site's menu on a phone (at most 640 px wide): folded behind a "Menu" button, which this script shows and
// wires. Without this script the button stays hidden and the links show as they do on a wide screen. The open menu
// closes on the button, on Escape (focus back on the button) and on a click or tap anywhere outside it.
(function () {
  const header = document.querySelector("header.top");
  const button = header && header.querySelector(".menu-toggle");
  const nav = header && header.querySelector("#site-nav");
  if (!button || !nav) return;
  header.classList.add("menu-folds");
  button.hidden = false;
  function setOpen(open) {
    nav.classList.toggle("open", open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
  }
  button.addEventListener("click", function () {
    setOpen(!nav.classList.contains("open"));
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !nav.classList.contains("open")) return;
    setOpen(false);
    button.focus();
  });
  document.addEventListener("click", function (event) {
    if (!nav.classList.contains("open") || nav.contains(event.target) || button.contains(event.target)) return;
    setOpen(false);
  });
})();
