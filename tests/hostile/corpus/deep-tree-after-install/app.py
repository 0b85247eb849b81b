from hostile_kit import serve

serve()
