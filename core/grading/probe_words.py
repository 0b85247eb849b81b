"""Words for the probe's look-alike paths (core.grading.probe, docs/scoring.md "API Coverage").

Resource names as web APIs use them, singular and plural, written for this project. A look-alike must read like a
route name, or a service that knows no route tells it from an endpoint by a dictionary (red team round 10: 200 to
any path whose segment is an English word earned 129 of 130 endpoints against random letters), or by a list of
common resource names. The probe takes these words minus every word of the task's README, so a look-alike hardly
ever names a route the service serves without declaring it: services add routes for what their README talks about
(words of the README itself did collide: the Spring reference of spring-boot-course-scheduling serves an undeclared
`/api/majors`, and a look-alike `majors` took the credit of all five `/api/teachers` endpoints).
"""

RESOURCE_NAMES = frozenset((
    "account accounts address addresses album albums alert alerts allergy allergies appointment appointments "
    "attachment attachments audit audits author authors badge badges bank banks batch batches bed beds bid bids "
    "bill bills booking bookings book books board boards branch branches brand brands budget budgets building "
    "buildings bundle bundles calendar calendars campaign campaigns card cards cart carts catalog catalogs "
    "category categories certificate certificates challenge challenges channel channels charge charges chart "
    "charts city cities claim claims client clients clinic clinics club clubs coach coaches collection "
    "collections color colors column columns comment comments company companies contact contacts contest "
    "contests contract contracts country countries coupon coupons course courses credit credits customer "
    "customers dashboard dashboards deal deals deck decks delivery deliveries department departments deposit "
    "deposits device devices discount discounts doctor doctors document documents donation donations draft "
    "drafts driver drivers election elections employee employees entry entries episode episodes estimate "
    "estimates event events exam exams expense expenses favorite favorites feed feeds fee fees flight flights "
    "folder folders form forms forum forums friend friends game games genre genres gift gifts goal goals grade "
    "grades group groups guest guests hotel hotels house houses idea ideas image images incident incidents "
    "invoice invoices item items job jobs journal journals label labels lesson lessons library libraries license "
    "licenses link links loan loans location locations match matches meal meals meeting meetings member members "
    "menu menus message messages milestone milestones mission missions movie movies note notes notification "
    "notifications offer offers order orders owner owners package packages parcel parcels partner partners "
    "patient patients payment payments pet pets photo photos player players playlist playlists plan plans poll "
    "polls portfolio portfolios position positions post posts prescription prescriptions price prices product "
    "products profile profiles project projects promotion promotions property properties proposal proposals "
    "purchase purchases question questions quiz quizzes quote quotes rating ratings receipt receipts recipe "
    "recipes record records refund refunds region regions reminder reminders rental rentals reservation "
    "reservations restaurant restaurants review reviews reward rewards room rooms sale sales schedule schedules "
    "score scores season seasons seat seats section sections sensor sensors shift shifts shipment shipments shop "
    "shops skill skills slot slots song songs sponsor sponsors station stations store stores story stories "
    "student students subject subjects subscription subscriptions supplier suppliers survey surveys tag tags "
    "task tasks team teams template templates tenant tenants thread threads ticket tickets topic topics tour "
    "tours track tracks trade trades transaction transactions transfer transfers trip trips unit units vehicle "
    "vehicles vendor vendors venue venues video videos visit visits vote votes voucher vouchers wallet wallets "
    "warehouse warehouses wishlist wishlists workout workouts workshop workshops zone zones "
).split())

#: Words that name routes as RepoGenesis' task APIs name them (actions, system and domain words) and that are in
#: neither RESOURCE_NAMES nor ACCESS_WORDS: the second pool of look-alikes. A path word is replaced by a word of its
#: own pool (`core.grading.probe._pool`), so membership of any list this project publishes tells a look-alike from
#: a route no better than chance (red team round 12: a service answering 404 to every segment in RESOURCE_NAMES and
#: 200 to the rest earned 191 of 287 Verified endpoints, because look-alikes were always listed and two thirds of
#: the real path words were not).
ROUTE_WORDS = frozenset((
    "adjust agents artifacts auto ban builds cancel change classroom classrooms constraints convert create daily "
    "data datasets datasources download echo execute executions files git history join latest leaderboard leave "
    "likes localize logs mail manual moves multiple offerings org password people permissions problems query "
    "queue quota rename reports reset results roles search send share standings state statistics stats "
    "submissions sum system teacher teachers term terms timezone todos toggle translate upload users validate "
    "webhooks widgets"
).split())

#: Words of sign-in, identity and service-health routes (`/login`, `/me`, `/health`): the third pool, so that a
#: service answering 200 to these words alone earns nothing either.
ACCESS_WORDS = frozenset((
    "activate admin alive api auth authorize callback confirm credentials docs example health heartbeat identity "
    "info login logout me metrics mfa oauth otp ping ready refresh register session sessions signin signout signup "
    "sso status token tokens uptime v verify version whoami"
).split())

#: Words never drawn as look-alikes (they stay in their pool as path words): routes services serve without
#: declaring them (a health check, FastAPI's `/docs`, an API prefix). A look-alike answered by such a route would
#: cost an honest service its declared endpoint's credit; the price is that a service answering 200 to these
#: words alone earns the endpoints named by them (docs/scoring.md "API Coverage", limits).
NEVER_DRAWN = frozenset(("api docs health metrics ping v").split())
