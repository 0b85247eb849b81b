// The site's menu on a phone (at most 640 px wide): folded behind a "Menu" button, which this script shows and
// wires. Without this script the button stays hidden and the links show as they do on a wide screen.
(function () {
  const header = document.querySelector("header.top");
  const button = header && header.querySelector(".menu-toggle");
  const nav = header && header.querySelector("#site-nav");
  if (!button || !nav) return;
  header.classList.add("menu-folds");
  button.hidden = false;
  button.addEventListener("click", function () {
    const open = nav.classList.toggle("open");
    button.setAttribute("aria-expanded", open ? "true" : "false");
  });
})();
