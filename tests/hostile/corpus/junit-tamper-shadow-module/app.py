from hostile_kit import make_app, serve

serve(make_app(with_put=False))
