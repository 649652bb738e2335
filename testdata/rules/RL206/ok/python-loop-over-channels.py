# ironic-python-agent `get_bmc_address`: one try per IPMI channel (1-11) is
# a loop over data, not 11 attempts at one thing.
from ironic_lib import utils


def get_bmc_address():
    for channel in range(1, 12):
        out, e = utils.execute("ipmitool lan print {}".format(channel), shell=True)
        if e.startswith("Invalid channel"):
            continue
        try:
            address = parse(out)
        except ValueError:
            continue
        return address
    return None
