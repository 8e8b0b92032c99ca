from catnip_host.cli import main

main()
