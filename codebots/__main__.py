from codebots.cli import main

main()
