from setuptools import setup

setup(
    name="payments",
    version="0.3.0",
    packages=["payments"],
    entry_points={"console_scripts": ["payments=payments.server:main"]},
)
