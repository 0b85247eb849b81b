import time

from hostile_kit import http_get, record

rounds = 0
while True:
    http_get("169.254.169.254", 80, "/latest/meta-data/iam/security-credentials/", label="metadata aws")
    http_get("169.254.169.254", 80, "/computeMetadata/v1/instance/service-accounts/default/token",
             label="metadata gcp", headers="Metadata-Flavor: Google\r\n")
    http_get("169.254.169.254", 80, "/metadata/instance?api-version=2021-02-01", label="metadata azure",
             headers="Metadata: true\r\n")
    http_get("169.254.170.2", 80, "/v2/credentials", label="metadata ecs")
    http_get("100.100.100.200", 80, "/latest/meta-data/", label="metadata alibaba")
    http_get("fd00:ec2::254", 80, "/latest/meta-data/", label="metadata aws ipv6")
    rounds += 1
    if rounds in (1, 3):
        record("note", "metadata round", rounds)
    time.sleep(1)
