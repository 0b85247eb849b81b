import time

from hostile_kit import TARGETS, pg_startup, record, redis_set, try_connect

rounds = 0
while True:
    for host in ["127.0.0.1", "::1", "localhost", *TARGETS["host_ips"]]:
        if host == "localhost":
            host = "127.0.0.1" if rounds % 2 == 0 else "::1"
        redis_set(host)
        pg_startup(host)
        for port, label in ((3306, "mariadb"), (5672, "rabbitmq"), (4222, "nats"), (1883, "mqtt"),
                            (8000, "site")):
            try_connect(host, port, label=label)
    rounds += 1
    if rounds in (1, 3):
        record("note", "host services round", rounds)
    time.sleep(1)
